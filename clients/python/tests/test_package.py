import re
import tomllib
import unittest
from pathlib import Path

import avatar_video

ROOT = Path(__file__).resolve().parents[1]


class PackageTest(unittest.TestCase):
    def test_the_version_is_pyproject_s(self) -> None:
        project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
        self.assertEqual(avatar_video.__version__, project["version"])
        self.assertEqual(avatar_video.USER_AGENT, f"avatar-video-python/{project['version']}")
        self.assertEqual(project["dependencies"], [])

    def test_the_readme_example_compiles(self) -> None:
        example = re.search(r"```python\n(.*?)```", (ROOT / "README.md").read_text(), re.S)
        assert example is not None
        compile(example.group(1), "README.md", "exec")


if __name__ == "__main__":
    unittest.main()
