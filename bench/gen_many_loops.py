#!/usr/bin/env python3
"""A compute shader of N constant-trip loops in one function (GLSL on
stdout): the evaluator's loop tracker once kept every function variable of
the function as each loop's state, so memory and time grew with N squared
(2000 loops: 8.4 GB, 14.8 s in `clockwork check`).  The fuzz regression
tests/fuzz/regressions/spirv/oom-700-constant-loops.spv is
`gen_many_loops.py 700 | glslc -fshader-stage=compute - -o FILE`;
bench/static.bench.sh times its replay.

    python3 bench/gen_many_loops.py N [const|load]

const: each loop adds constants (no memory access); load: each loop reads
the buffer (as many loads as loops)."""
import sys


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    kind = sys.argv[2] if len(sys.argv) > 2 else "const"
    out = ["#version 450",
           "layout(local_size_x = 64) in;",
           "layout(set = 0, binding = 0) buffer A { float a[]; };",
           "void main() {",
           "    uint i = gl_GlobalInvocationID.x;",
           "    float acc = 0.0;"]
    for j in range(n):
        body = (f"acc += float(k) * {j + 1}.0;" if kind == "const"
                else f"acc += a[i + k * {j + 1}u];")
        out.append(f"    for (uint k = 0u; k < 4u; k++) {body}")
    out += ["    a[i] = acc;", "}"]
    print("\n".join(out))


if __name__ == "__main__":
    main()
