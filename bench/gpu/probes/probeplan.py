"""Writes one probe plan of bench/gpu/probes: NAME.json at H200 sizes, or
NAME-cpu.json (the lavapipe dry-run sizes) when the generator was run with
--cpu; the generators (gen_*.py) only build the kernel list."""
import json
import sys

CPU = "--cpu" in sys.argv


def write(name, description, kernels):
    """The plan NAME(-cpu).json with DESCRIPTION and KERNELS; prints its
    name and kernel count."""
    plan = {"description": description + (" - lavapipe dry-run sizes" if CPU else ""),
            "kernels": kernels}
    out = name + ("-cpu.json" if CPU else ".json")
    with open(out, "w") as f:
        json.dump(plan, f, indent=1)
        f.write("\n")
    print(out, len(kernels), "kernels")
