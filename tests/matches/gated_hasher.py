"""Django's default hasher, which a test can hold in the middle of hashing one password.

Hashing ``GATED_PASSWORD`` writes ``hashing`` in the folder ``HASH_GATE_DIR`` names, then waits
until the test writes ``go`` there: the test knows the server is hashing, and for how long.
Every other password is hashed as by Django's own.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from django.contrib.auth.hashers import PBKDF2PasswordHasher

GATED_PASSWORD = "held-while-hashing-1"


class GatedHasher(PBKDF2PasswordHasher):
    def encode(self, password: str, salt: str, iterations: int | None = None) -> str:
        if password == GATED_PASSWORD and os.environ.get("HASH_GATE_DIR"):
            gate = Path(os.environ["HASH_GATE_DIR"])
            (gate / "hashing").touch()
            deadline = time.monotonic() + 120
            while not (gate / "go").exists() and time.monotonic() < deadline:
                time.sleep(0.01)  # the test opens the gate once it has written meanwhile
        return super().encode(password, salt, iterations)
