#version 450
// Hillis-Steele inclusive scan missing the barrier between the read and the write.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Data { uint v[]; };
shared uint s[64];
void main() {
    uint l = gl_LocalInvocationID.x;
    s[l] = v[l];
    barrier();
    for (uint off = 1; off < 64; off <<= 1) {
        uint add = l >= off ? s[l - off] : 0u;
        s[l] += add;
        barrier();
    }
    v[l] = s[l];
}
