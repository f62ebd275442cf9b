"""`python -m referee.http.contract [openapi.yaml]` (`make contract`): writes the committed
contract."""

import sys
from pathlib import Path

from referee.http.contract import committed_document

target = Path(sys.argv[1] if len(sys.argv) > 1 else "openapi.yaml")
target.write_text(committed_document(), encoding="utf-8")
print(f"wrote {target}")
