#version 450
// Probe (partial-sector stores): each workgroup owns 32 columns (lane x of
// every subgroup), columns `stride` floats apart (each lane its own line);
// of a column's first `sectors` 32-byte sectors, subgroup y < writers
// stores words y * trips .. y * trips + trips - 1 of each, one a trip.
// writers x trips = 8 completes every sector: by 8 subgroups at once (a
// naive transpose's column stores), or by one lane over 8 trips.
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) writeonly buffer D { float d[]; };
layout(push_constant) uniform P { uint writers; uint trips; uint stride; uint sectors; };

void main() {
    uint l = gl_LocalInvocationID.x, x = l & 31u, y = l >> 5u;
    if (y >= writers)
        return;
    uint col = (gl_WorkGroupID.x * 32u + x) * stride;
    for (uint s = 0u; s < sectors; s++)
        for (uint t = 0u; t < trips; t++)
            d[col + s * 8u + y * trips + t] = float(t);
}
