#version 450
// Each invocation loops a different number of times around a barrier.
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) buffer Data { float data[]; };
shared float tile[32];
void main() {
    uint l = gl_LocalInvocationID.x;
    tile[l] = data[l];
    for (uint k = 0; k < (l & 3u); k++) {
        barrier();
        tile[l] += 1.0;
    }
    data[l] = tile[l];
}
