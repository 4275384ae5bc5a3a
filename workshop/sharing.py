"""A model shared as a link: its JSON, zlib-compressed and base64url-encoded, in a `?share=` parameter.

Links stay under `MAX_SHARE_CHARS` (8,000 characters) so that they survive browsers, proxies and chat
tools, which commonly cut URLs near 8 KB; a bigger model is shared as a file instead. Decoding is
zip-bomb safe: the text is length-checked before decoding, decompression stops at `MAX_MODEL_BYTES`
(1 MB, below the 5 MB file limit of `modeling.model_file`), and the result then goes through the same safe
parsing and validation as an uploaded file.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
import zlib
from typing import Any

from studio.errors import ModelFileError, Problem
from studio.model import MAX_FILE_BYTES, model_from_document, parse_document

MAX_SHARE_CHARS = 8_000
# A link of 8,000 characters carries ~6 KB packed; models compress about 5:1, so ~30 KB of JSON is the
# most a real link holds. 1 MB leaves room and caps what a crafted link can unpack to (zlib reaches ~1,000:1).
MAX_MODEL_BYTES = min(MAX_FILE_BYTES, 1024 * 1024)
SHARE_PARAMETER = "share"
_BASE64URL = re.compile(r"^[A-Za-z0-9_-]+$")


class ShareLinkError(ModelFileError):
    """A share link that cannot be opened (too long, damaged, too big unpacked, or not a valid model)."""


def _error(message: str, suggestion: str) -> ShareLinkError:
    return ShareLinkError([Problem("share", message, suggestion)], "share link")


def encode_share(document: dict[str, Any]) -> str | None:
    """The `share` parameter for a model document, or None when it would exceed MAX_SHARE_CHARS."""
    data = json.dumps(document, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    token = base64.urlsafe_b64encode(zlib.compress(data, 9)).decode("ascii").rstrip("=")
    return token if len(token) <= MAX_SHARE_CHARS else None


def decode_share(token: str) -> dict[str, Any]:
    """The model document in a `share` parameter, validated; raises ShareLinkError saying what is wrong."""
    if len(token) > MAX_SHARE_CHARS:
        raise _error(f"the link is {len(token):,} characters long, more than {MAX_SHARE_CHARS:,}",
                     "ask for the model as a file instead")
    if not _BASE64URL.match(token):
        raise _error("the link is damaged (unexpected characters)", "copy the whole link again")
    try:
        packed = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
        inflater = zlib.decompressobj()
        data = inflater.decompress(packed, MAX_MODEL_BYTES)
    except (binascii.Error, ValueError, zlib.error):
        raise _error("the link is damaged (it does not unpack)", "copy the whole link again") from None
    if inflater.unconsumed_tail or not inflater.eof:
        raise _error(f"the link unpacks to more than {MAX_MODEL_BYTES:,} bytes or is cut short",
                     "ask for the model as a file instead") from None
    try:
        document = parse_document(data, "shared.json")
        model_from_document(document, "share link")
    except ShareLinkError:
        raise
    except ModelFileError as exc:
        raise ShareLinkError(exc.problems, "share link") from None
    return document
