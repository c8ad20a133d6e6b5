#version 450
// Blind set 3: an array of 32-B particle structs; each invocation reads
// the position and mass (the first 16 B) and stores only the 4-B cell tag
// at byte 28 (a partial-sector write, the rest of the record untouched);
// a negative mass tags the particle dead.
struct Particle {
    vec3 pos;
    float mass;
    vec3 vel;
    uint tag;
};
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) buffer S { Particle part[]; };
layout(push_constant) uniform P { uint n; uint cells; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= n)
        return;
    vec3 p = part[i].pos;
    if (part[i].mass < 0.0) {
        part[i].tag = 0xffffffffu;
        return;
    }
    uvec3 c = uvec3(clamp((p + 1.0) * 0.5 * float(cells), vec3(0.0), vec3(float(cells - 1u))));
    part[i].tag = (c.z * cells + c.y) * cells + c.x;
}
