"""The store installs torch's Python dependencies once for all its releases (matrix/torch_store.py,
share_dependencies): each release's site-packages links to one compiled copy. The sites here are laid
out as pip lays them out (a RECORD per distribution, a console script in bin/); expected, from how
Python imports: a shared module imports from the release's site-packages path with bytecode beside
it, a namespace folder two distributions fill stays unshared, torch stays the release's own, and
removing the last release that links a copy removes the copy."""

import json
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "matrix"))
import torch_store  # noqa: E402


def distribution(site: Path, name: str, version: str, files: dict[str, str]) -> None:
    dist_info = site / f"{name}-{version}.dist-info"
    dist_info.mkdir(parents=True)
    (dist_info / "METADATA").write_text(f"Name: {name}\nVersion: {version}\n")
    for path, text in files.items():
        (site / path).parent.mkdir(parents=True, exist_ok=True)
        (site / path).write_text(text)
    recorded = [*files, f"{dist_info.name}/METADATA", f"{dist_info.name}/RECORD", "../../../bin/tool,sha256=x,1"]
    (dist_info / "RECORD").write_text("".join(f"{path},,\n" if "," not in path else f"{path}\n" for path in recorded))


def release_site(root: Path, version: str) -> Path:
    """A release's site-packages as pip leaves it, before sharing."""
    site = root / "releases" / version / "venv" / "lib" / "python3.11" / "site-packages"
    distribution(site, "sympy", "1.14.0", {"sympy/__init__.py": "VALUE = 14\n", "sympy/core/add.py": "ADD = 1\n"})
    distribution(site, "typing_extensions", "4.16.0", {"typing_extensions.py": "TYPED = True\n"})
    distribution(site, "ns_a", "1.0", {"spacename/a.py": "A = 1\n"})
    distribution(site, "ns_b", "1.0", {"spacename/b.py": "B = 1\n"})
    distribution(site, "torch", version, {"torch/__init__.py": f"__version__ = '{version}'\n"})
    (root / "releases" / version / "release.json").write_text(json.dumps(
        {"version": version, "torch_dir": str(site / "torch"), "python": sys.executable}))
    return site


class SharedDependencies(unittest.TestCase):
    def setUp(self):
        self.root = Path(tempfile.mkdtemp(prefix="shared-dependencies-"))
        self.store = torch_store.Store(self.root)
        self.shared = self.store.python_packages_dir

    def tearDown(self):
        subprocess.run(["rm", "-rf", str(self.root)], check=False)

    def share(self, version):
        site = release_site(self.root, version)
        torch_store.share_dependencies(Path(sys.executable), site, self.shared)
        return site

    def test_two_releases_link_one_compiled_copy_and_import_from_their_own_path(self):
        first, second = self.share("2.9.1"), self.share("2.10.0")
        for site in (first, second):
            self.assertEqual((site / "sympy").resolve(), self.shared / "sympy-1.14.0" / "sympy")
            self.assertEqual((site / "typing_extensions.py").resolve(),
                             self.shared / "typing_extensions-4.16.0" / "typing_extensions.py")
            self.assertFalse((site / "spacename").is_symlink(), "a namespace two distributions fill was moved")
            self.assertFalse((site / "torch").is_symlink())
            self.assertTrue((site / "sympy-1.14.0.dist-info" / "METADATA").is_file())
        self.assertEqual(sorted(path.name for path in self.shared.iterdir()), ["sympy-1.14.0", "typing_extensions-4.16.0"])
        self.assertTrue(list((self.shared / "sympy-1.14.0" / "sympy" / "core" / "__pycache__").glob("add.*.pyc")))
        imported = subprocess.run(
            [sys.executable, "-c", "import sympy.core.add as m, spacename.a, torch; print(m.ADD, m.__file__, torch.__version__)"],
            env={"PYTHONPATH": str(second), "PYTHONDONTWRITEBYTECODE": "1"}, capture_output=True, text=True, check=True)
        self.assertEqual(imported.stdout.split(), ["1", str(second / "sympy" / "core" / "add.py"), "2.10.0"])

    def test_removing_the_last_release_that_links_a_copy_removes_the_copy(self):
        self.share("2.9.1")
        self.share("2.10.0")
        self.store.remove((2, 9, 1))
        self.assertTrue((self.shared / "sympy-1.14.0").is_dir())
        self.store.remove((2, 10, 0))
        self.assertEqual(list(self.shared.iterdir()), [])

    def test_an_interrupted_move_is_redone_by_the_next_release(self):
        (self.shared / "sympy-1.14.0.new" / "sympy").mkdir(parents=True)  # a move that never ended
        site = self.share("2.9.1")
        self.assertFalse((self.shared / "sympy-1.14.0.new").exists())
        self.assertTrue((site / "sympy" / "core" / "add.py").is_file())


if __name__ == "__main__":
    unittest.main()
