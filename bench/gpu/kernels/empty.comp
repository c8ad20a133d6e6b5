#version 450
// Launch probe: a dispatch that does nothing (the timing floor).
layout(local_size_x = 64) in;
void main() {}
