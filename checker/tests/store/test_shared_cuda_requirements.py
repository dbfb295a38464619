"""The store's shared CUDA set serves every release of a CUDA major (matrix/torch_store.py,
merge_shared_requirements). The requirement lines are the real Requires-Dist of torch 2.11.0,
2.12.1 and 2.15.0 (CUDA 13). Expected, from what each release loads: 2.11 to 2.14 load
libcurand.so.10, which 2.15's cuda-toolkit extras no longer name, so the set keeps the extra; the
newest release's pins win; 2.12's own pin of nvidia-cublas (below what 2.15's cuda-toolkit pins)
stays a name without a version, since both pins cannot be installed together."""

import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "matrix"))
import torch_store  # noqa: E402

LINUX = 'platform_system == "Linux"'
TORCH_2_11 = [
    f"cuda-toolkit[cublas,cudart,cufft,cufile,cupti,curand,cusolver,cusparse,nvjitlink,nvrtc,nvtx]==13.0.2; {LINUX}",
    f"cuda-bindings<14,>=13.0.3; {LINUX}",
    f"nvidia-cudnn-cu13==9.19.0.56; {LINUX}",
]
TORCH_2_12 = [
    f"cuda-toolkit[cudart,cufft,cufile,cupti,curand,cusolver,cusparse,nvjitlink,nvrtc,nvtx]==13.0.2; {LINUX}",
    f"nvidia-cublas<=13.1.1.3,>=13.1.0.3; {LINUX}",
    f"nvidia-cudnn-cu13==9.20.0.48; {LINUX}",
]
TORCH_2_15 = [
    f"cuda-toolkit[cublas,cudart,cufft,cufile,cupti,cusolver,cusparse,nvjitlink,nvrtc,nvtx]==13.2.2; {LINUX}",
    f'cuda-bindings<14,>=13.0.3; {LINUX} and python_version < "3.15"',
    f"nvidia-cudnn-cu13==9.26.0.51; {LINUX}",
]


def by_name(requirements):
    return {torch_store.requirement_name(line): line for line in requirements}


class SharedCudaRequirements(unittest.TestCase):
    def test_an_older_release_keeps_the_library_the_newer_one_dropped(self):
        merged = by_name(torch_store.merge_shared_requirements(TORCH_2_15, (2, 15, 0), TORCH_2_11, (2, 11, 0)))
        toolkit = merged["cuda-toolkit"]
        self.assertIn("curand", toolkit)
        self.assertIn("==13.2.2", toolkit)  # the newest release's pin
        self.assertEqual(merged["nvidia-cudnn-cu13"], f"nvidia-cudnn-cu13==9.26.0.51; {LINUX}")
        self.assertIn('python_version < "3.15"', merged["cuda-bindings"])

    def test_the_order_the_releases_come_in_does_not_matter(self):
        self.assertEqual(torch_store.merge_shared_requirements(TORCH_2_15, (2, 15, 0), TORCH_2_11, (2, 11, 0)),
                         torch_store.merge_shared_requirements(TORCH_2_11, (2, 11, 0), TORCH_2_15, (2, 15, 0)))

    def test_a_pin_only_an_older_release_makes_becomes_a_name(self):
        merged = by_name(torch_store.merge_shared_requirements(TORCH_2_15, (2, 15, 0), TORCH_2_12, (2, 12, 1)))
        self.assertEqual(merged["nvidia-cublas"], f"nvidia-cublas; {LINUX}")
        self.assertIn("cublas", merged["cuda-toolkit"])

    def test_a_set_that_already_serves_a_release_is_left_as_it_is(self):
        held = torch_store.merge_shared_requirements(TORCH_2_15, (2, 15, 0), TORCH_2_15, (2, 15, 0))
        self.assertEqual(torch_store.merge_shared_requirements(held, (2, 15, 0), TORCH_2_15, (2, 15, 0)), held)
        self.assertNotEqual(torch_store.merge_shared_requirements(held, (2, 15, 0), TORCH_2_11, (2, 11, 0)), held)

    def test_the_set_a_run_installs_first_serves_each_of_its_releases_without_a_reinstall(self):
        # `store install` of several releases installs each major's set once, before any release:
        # each release's own check (as _ensure_cuda_set makes it) must then find nothing to add.
        sets = torch_store.shared_cuda_sets([((2, 12, 1), TORCH_2_12, "13.0"), ((2, 15, 0), TORCH_2_15, "13.2"),
                                             ((2, 11, 0), TORCH_2_11, "13.0"), ((2, 10, 0), ["filelock"], None)])
        self.assertEqual(list(sets), [13])
        newest, installed = sets[13]
        self.assertEqual(newest, (2, 15, 0))
        held = torch_store.merge_shared_requirements(installed, newest, installed, newest)
        for version, requirements in (((2, 11, 0), TORCH_2_11), ((2, 12, 1), TORCH_2_12), ((2, 15, 0), TORCH_2_15)):
            self.assertEqual(torch_store.merge_shared_requirements(installed, newest, requirements, version), held,
                             version)
        # The newest release alone would not have served the older two (what the store did before).
        alone = torch_store.shared_cuda_sets([((2, 15, 0), TORCH_2_15, "13.2")])[13][1]
        self.assertNotEqual(torch_store.merge_shared_requirements(alone, newest, TORCH_2_12, (2, 12, 1)),
                            torch_store.merge_shared_requirements(alone, newest, alone, newest))


if __name__ == "__main__":
    unittest.main()
