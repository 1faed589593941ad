"""Writes Tests/ImagingTests/Fixtures/exif-N.jpg (N = 1…8) and Pillow's displayed pixels for each.

One 24×16 picture of six flat 8×8 blocks (aligned to JPEG's blocks, quality 100, 4:4:4, so the
decode is nearly exact), stored unrotated with EXIF orientation N in an APP1 segment, as phones
write it. exif-N.rgb is `ImageOps.exif_transpose` of Pillow's decode: raw interleaved RGB of the
picture as a viewer shows it (16×24 for N ≥ 5), the reference for ScreenLab's decode. exif-bad.jpg
carries an EXIF segment whose IFD offset points past its end (a viewer shows it unturned);
exif-6-big-endian.jpg is orientation 6 in big-endian EXIF (compare with exif-6.rgb).
Run: see README.md in this folder.
"""
import io
import sys
from pathlib import Path

import numpy as np
from PIL import Image, ImageOps

out = Path(sys.argv[1] if len(sys.argv) > 1 else "Tests/ImagingTests/Fixtures")
colors = [(220, 40, 40), (40, 200, 60), (40, 60, 220), (240, 220, 40), (30, 30, 30), (250, 250, 250)]
pixels = np.zeros((16, 24, 3), dtype=np.uint8)
for i, color in enumerate(colors):
    row, column = divmod(i, 3)
    pixels[row * 8:(row + 1) * 8, column * 8:(column + 1) * 8] = color
picture = Image.fromarray(pixels, "RGB")

for orientation in range(1, 9):
    exif = Image.Exif()
    exif[0x0112] = orientation
    buffer = io.BytesIO()
    picture.save(buffer, "JPEG", quality=100, subsampling=0, exif=exif.tobytes())
    (out / f"exif-{orientation}.jpg").write_bytes(buffer.getvalue())
    shown = ImageOps.exif_transpose(Image.open(io.BytesIO(buffer.getvalue())).convert("RGB"))
    (out / f"exif-{orientation}.rgb").write_bytes(np.asarray(shown, dtype=np.uint8).tobytes())
    print(orientation, shown.size)

# An EXIF segment whose first IFD lies beyond the segment: ignored, as viewers ignore it.
exif = Image.Exif()
exif[0x0112] = 6
buffer = io.BytesIO()
picture.save(buffer, "JPEG", quality=100, subsampling=0, exif=exif.tobytes())
data = bytearray(buffer.getvalue())
tiff = data.find(b"Exif\x00\x00") + 6
order = "little" if data[tiff:tiff + 2] == b"II" else "big"
data[tiff + 4:tiff + 8] = (0xFFF0).to_bytes(4, order)
(out / "exif-bad.jpg").write_bytes(bytes(data))
# Orientation 6 in a big-endian ("MM", as iPhones write it) EXIF block built by hand: one IFD entry.
motorola = (b"Exif\x00\x00" + b"MM\x00\x2a" + (8).to_bytes(4, "big") + (1).to_bytes(2, "big")
            + (0x0112).to_bytes(2, "big") + (3).to_bytes(2, "big") + (1).to_bytes(4, "big") + b"\x00\x06\x00\x00"
            + (0).to_bytes(4, "big"))
buffer = io.BytesIO()
picture.save(buffer, "JPEG", quality=100, subsampling=0, exif=motorola)
(out / "exif-6-big-endian.jpg").write_bytes(buffer.getvalue())
assert ImageOps.exif_transpose(Image.open(io.BytesIO(buffer.getvalue()))).size == (16, 24)
print("Pillow", Image.__version__ if hasattr(Image, "__version__") else "")
