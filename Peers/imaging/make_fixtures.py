"""Writes the tiny PNG/JPEG fixtures of Tests/ImagingTests/Fixtures with known pixel values.

Pillow writes the ordinary flavours; 16-bit RGB and Adam7-interlaced PNGs, which Pillow
cannot write, come from the small raw PNG writer below. JPEG references (*.rgb) are
Pillow's own decode (raw interleaved RGB bytes), to compare ours against.
Run: see README.md in this folder.
"""
import io
import struct
import sys
import zlib
from pathlib import Path

import numpy as np
from PIL import Image

out = Path(sys.argv[1] if len(sys.argv) > 1 else "Tests/ImagingTests/Fixtures")
out.mkdir(parents=True, exist_ok=True)


def chunk(kind, payload):
    body = kind + payload
    return struct.pack(">I", len(payload)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


def raw_png(pixels, bit_depth, color_type, interlace=False):
    """pixels: numpy array (H, W, C) of uint8 or uint16; filter 0 on every row."""
    h, w = pixels.shape[:2]
    dtype = ">u2" if bit_depth == 16 else "u1"

    def rows(image):
        return b"".join(b"\x00" + image[y].astype(dtype).tobytes() for y in range(image.shape[0]))

    if interlace:
        passes = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
        data = b"".join(rows(pixels[y0::dy, x0::dx]) for x0, y0, dx, dy in passes
                        if pixels[y0::dy, x0::dx].size > 0)
    else:
        data = rows(pixels)
    ihdr = struct.pack(">IIBBBBB", w, h, bit_depth, color_type, 0, 0, 1 if interlace else 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(data, 9)) + chunk(b"IEND", b"")


# 4×3 RGB: every pixel distinct, value = f(x, y, channel).
rgb = np.array([[[x * 60, y * 90 + 10, 255 - x * 20 - y * 50] for x in range(4)] for y in range(3)], dtype=np.uint8)
Image.fromarray(rgb, "RGB").save(out / "rgb8.png")

# 4×1 RGBA: alpha 0, 64, 128, 255 over colour (200, 100, 0).
rgba = np.array([[[200, 100, 0, a] for a in (0, 64, 128, 255)]], dtype=np.uint8)
Image.fromarray(rgba, "RGBA").save(out / "rgba8.png")

# 4×2 gray and gray+alpha.
gray = np.array([[0, 50, 100, 255], [1, 2, 3, 128]], dtype=np.uint8)
Image.fromarray(gray, "L").save(out / "gray8.png")
graya = np.stack([gray, np.array([[255, 255, 0, 128], [255, 255, 255, 255]], dtype=np.uint8)], axis=-1)
Image.fromarray(graya, "LA").save(out / "graya8.png")

# 1-bit: checkerboard 3×2.
Image.fromarray(np.array([[255, 0, 255], [0, 255, 0]], dtype=np.uint8), "L").convert("1").save(out / "gray1.png")

# Palette 3×2 with 3 colours.
palette_image = Image.new("P", (3, 2))
palette_image.putpalette([255, 0, 0, 0, 255, 0, 10, 20, 30] + [0] * (256 * 3 - 9))
palette_image.putdata([0, 1, 2, 2, 1, 0])
palette_image.save(out / "palette.png")

# 16-bit RGB 2×2 (values chosen so value/257 is exact or a clear rounding case) and 16-bit gray.
rgb16 = np.array([[[0, 65535, 257 * 100], [257 * 200, 257 * 50, 65535]],
                  [[257 * 10, 257 * 20, 257 * 30], [32896, 65535, 0]]], dtype=np.uint16)
(out / "rgb16.png").write_bytes(raw_png(rgb16, 16, 2))
Image.fromarray(np.array([[0, 257 * 77], [65535, 257 * 128]], dtype=np.uint16)).save(out / "gray16.png")

# Adam7-interlaced 9×9 RGB (passes of every size, including partial ones).
inter = np.array([[[x * 28, y * 28, (x + y) * 14] for x in range(9)] for y in range(9)], dtype=np.uint8)
(out / "interlaced.png").write_bytes(raw_png(inter, 8, 2, interlace=True))

# Palette with a tRNS chunk: index 1 fully transparent, index 2 half (alpha 128).
trns_image = Image.new("P", (3, 1))
trns_image.putpalette([255, 0, 0, 0, 255, 0, 10, 20, 30] + [0] * (256 * 3 - 9))
trns_image.putdata([0, 1, 2])
trns_image.save(out / "palette-trns.png", transparency=bytes([255, 0, 128]))

# gAMA 1.0 (linear) on pixel (64, 128, 192): Pillow and OpenCV ignore gAMA, so must we.
with_gamma = raw_png(np.array([[[64, 128, 192]]], dtype=np.uint8), 8, 2)
(out / "gamma-linear.png").write_bytes(with_gamma[:33] + chunk(b"gAMA", struct.pack(">I", 100000)) + with_gamma[33:])

# Truncated PNG: a 48×48 noise image cut after 40 % of its bytes (past the header).
rng = np.random.default_rng(7)
noise = rng.integers(0, 256, size=(48, 48, 3), dtype=np.uint8)
buffer = io.BytesIO()
Image.fromarray(noise, "RGB").save(buffer, "PNG")
(out / "truncated.png").write_bytes(buffer.getvalue()[: int(len(buffer.getvalue()) * 0.4)])

# A text file named .png.
(out / "not-an-image.png").write_text("hello, this is plain text and not a PNG\n")

# JPEGs: 16×16 of four flat 8×8 blocks (flat blocks survive JPEG almost exactly), 4:4:4.
blocks = np.zeros((16, 16, 3), dtype=np.uint8)
blocks[:8, :8] = (200, 30, 30)
blocks[:8, 8:] = (30, 200, 30)
blocks[8:, :8] = (30, 30, 200)
blocks[8:, 8:] = (240, 240, 240)


def save_jpeg(image, name, **options):
    image.save(out / name, "JPEG", **options)
    decoded = Image.open(out / name).convert("RGB")
    (out / (Path(name).stem + ".rgb")).write_bytes(np.asarray(decoded).tobytes())


save_jpeg(Image.fromarray(blocks, "RGB"), "baseline.jpg", quality=95, subsampling=0)
# Progressive 4:2:0 with a 3 KB comment segment before the frame header (readSize must hop it).
save_jpeg(Image.fromarray(blocks, "RGB"), "progressive.jpg", quality=95, subsampling=2, progressive=True,
          comment=b"x" * 3000)
save_jpeg(Image.fromarray(blocks, "RGB").convert("L"), "gray.jpg", quality=95)
cmyk = Image.fromarray(blocks, "RGB").convert("CMYK")
save_jpeg(cmyk, "cmyk.jpg", quality=95)

# Truncated JPEG: a 48×48 noise JPEG cut at 60 % (inside the entropy-coded data).
buffer = io.BytesIO()
Image.fromarray(noise, "RGB").save(buffer, "JPEG", quality=90)
(out / "truncated.jpg").write_bytes(buffer.getvalue()[: int(len(buffer.getvalue()) * 0.6)])

for path in sorted(out.iterdir()):
    print(f"{path.stat().st_size:6d}  {path.name}")

# OpenCV references for resize: a 13×9 noise image and cv2.resize outputs (raw RGB bytes).
import cv2  # noqa: E402  (opencv-python-headless)

source = np.random.default_rng(11).integers(0, 256, size=(9, 13, 3), dtype=np.uint8)
Image.fromarray(source, "RGB").save(out / "resize-source.png")
for name, (w, h), method in [("linear-7x5", (7, 5), cv2.INTER_LINEAR), ("linear-20x17", (20, 17), cv2.INTER_LINEAR),
                             ("area-6x4", (6, 4), cv2.INTER_AREA), ("area-5x3", (5, 3), cv2.INTER_AREA)]:
    (out / f"resize-{name}.rgb").write_bytes(cv2.resize(source, (w, h), interpolation=method).tobytes())
print("opencv", cv2.__version__)
