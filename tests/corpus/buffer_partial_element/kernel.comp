#version 450
// vec4 elements (16 bytes each); the plan gives 8 bytes: not one whole element.
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer Acc { vec4 acc[]; };

void main() {
    acc[0] += vec4(1.0);
}
