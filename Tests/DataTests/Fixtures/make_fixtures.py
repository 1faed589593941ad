#!/usr/bin/env python3
"""Writes the tiny DataTests fixtures (run from this folder; standard library only).
Each fixture folder is described in the test that reads it."""
import json, os, struct, zlib

def png(path, width, height, rgb=(200, 100, 50)):
    raw = b"".join(b"\x00" + bytes(rgb) * width for _ in range(height))
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    body = chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)) + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    open(path, "wb").write(b"\x89PNG\r\n\x1a\n" + body)

def corrupt_png(path, width, height):
    """Complete file (IEND present) whose IDAT holds bytes zlib rejects: only a full decode finds it."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    body = chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)) + chunk(b"IDAT", b"\x78\x9c" + b"\xff" * 40) + chunk(b"IEND", b"")
    open(path, "wb").write(b"\x89PNG\r\n\x1a\n" + body)

def copy(source, path):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    open(path, "wb").write(open(source, "rb").read())

def text(path, content):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    open(path, "w", newline="").write(content)

# yolo-basic: 3 classes, sizes read from PNG headers (no manifest), splits/*.txt.
png("yolo-basic/images/screen1.png", 40, 20)
png("yolo-basic/images/screen2.png", 30, 30, (10, 20, 30))
png("yolo-basic/images/screen3.png", 20, 40, (90, 90, 90))
text("yolo-basic/classes.txt", "Text\nIcon\nContainer\n")
text("yolo-basic/labels/screen1.txt", "0 0.5 0.5 0.5 0.5\n\n1 0.25 0.25 0.1 0.2\n")
text("yolo-basic/labels/screen2.txt", "2 0.2 0.3 0.6 0.4 0.6 0.5 0.2 0.5\r\n")  # polygon, CRLF
# screen3 has no label file: an image without boxes.
text("yolo-basic/splits/train.txt", "images/screen1.png\nimages/screen2.png\n")
text("yolo-basic/splits/val.txt", "images/screen3.png\n")

# yolo-ultralytics: data.yaml with names as a dict, a folder split and a ./ list split.
png("yolo-ultralytics/images/train/a.png", 10, 10)
png("yolo-ultralytics/images/val/b.png", 20, 10, (1, 2, 3))
text("yolo-ultralytics/labels/train/a.txt", "1 0.5 0.5 1 1\n")
text("yolo-ultralytics/labels/val/b.txt", "0 0.5 0.5 0.5 0.2\n")
text("yolo-ultralytics/val.txt", "./images/val/b.png\n")
text("yolo-ultralytics/data.yaml", "names:\n  0: Text\n  1: Icon\nnc: 2\ntrain: images/train\nval: val.txt\nroboflow:\n  workspace: x\n")

# coco-basic: non-contiguous category ids, an iscrowd box, a selected attribute.
png("coco-basic/images/s1.png", 40, 20)
png("coco-basic/images/s2.png", 30, 30, (5, 5, 5))
json.dump({
    "info": {"description": "fixture"},
    "images": [{"id": 17, "file_name": "images/s1.png", "width": 40, "height": 20},
               {"id": 4, "file_name": "images/s2.png", "width": 30, "height": 30}],
    "categories": [{"id": 10, "name": "Toggle (Selected)"}, {"id": 3, "name": "Text"}, {"id": 7, "name": "Icon"}],
    "annotations": [
        {"id": 1, "image_id": 17, "category_id": 3, "bbox": [1.5, 2, 10, 4.25], "area": 42.5, "iscrowd": 0},
        {"id": 2, "image_id": 17, "category_id": 10, "bbox": [20, 5, 8, 6], "area": 48, "iscrowd": 0,
         "attributes": {"selected": True}},
        {"id": 3, "image_id": 4, "category_id": 7, "bbox": [0, 0, 30, 30], "area": 900, "iscrowd": 1},
        {"id": 4, "image_id": 4, "category_id": 7, "bbox": [3, 4, 5, 6], "area": 30, "iscrowd": 0, "segmentation": []},
    ],
}, open("coco-basic/instances.json", "w"), indent=1)

# yolo-problems: one of each problem `data check` finds (see CheckTests).
png("yolo-problems/images/ok.png", 100, 50)
png("yolo-problems/images/dup.png", 100, 50)          # same bytes as ok.png
png("yolo-problems/images/shared.png", 60, 60, (9, 9, 9))
text("yolo-problems/images/corrupt.png", "this is not a PNG file\n")
text("yolo-problems/classes.txt", "Text\nIcon\n")
text("yolo-problems/labels/ok.txt",
     "0 0.5 0.5 0.2 0.2\n"        # line 1: fine
     "1 0.9 0.5 0.4 0.2\n"        # line 2: right edge at x 110 > 100 -> outside; clipped to x 70..100
     "0 0.5 0.5 0 0.2\n"          # line 3: zero width
     "5 0.5 0.5 0.1 0.1\n"        # line 4: unknown class 5
     "0 0.5 0.5 0.1\n"            # line 5: 4 fields
     "1 0.5 nan 0.1 0.1\n"        # line 6: NaN
     "1 0.5 0.5 abc 0.1\n"        # line 7: not a number
     "0 0.5 0.5 -0.1 0.2\n")      # line 8: negative width
text("yolo-problems/labels/dup.txt", "1 0.5 0.5 0.5 0.5\n")
text("yolo-problems/labels/shared.txt", "0 0.5 0.5 0.5 0.5\n")
text("yolo-problems/labels/ghost.txt", "0 0.5 0.5 0.5 0.5\n")   # no images/ghost.*
copy("../../ImagingTests/Fixtures/truncated.jpg", "yolo-problems/images/cut.jpg")  # JPEG without its FF D9 end
text("yolo-problems/labels/cut.txt", "0 0.5 0.5 0.5 0.5\n")
corrupt_png("yolo-problems/images/undecodable.png", 20, 20)   # passes the end check, fails --decode
text("yolo-problems/labels/undecodable.txt", "1 0.5 0.5 0.5 0.5\n")
text("yolo-problems/splits/train.txt", "images/ok.png\nimages/dup.png\nimages/corrupt.png\nimages/missing.png\nimages/shared.png\n"
     "images/cut.jpg\nimages/ok.png\nimages/undecodable.png\n")     # line 7 lists ok.png a second time
text("yolo-problems/splits/val.txt", "images/shared.png\n")

# coco-problems: an image whose JSON width disagrees with its header, a missing image and a
# truncated PNG (IEND cut off), each with one annotation.
png("coco-problems/images/s1.png", 40, 20)
copy("../../ImagingTests/Fixtures/truncated.png", "coco-problems/images/cut.png")
json.dump({
    "images": [{"id": 1, "file_name": "images/s1.png", "width": 41, "height": 20},
               {"id": 2, "file_name": "images/gone.png", "width": 30, "height": 30},
               {"id": 3, "file_name": "images/cut.png", "width": 48, "height": 48}],
    "categories": [{"id": 1, "name": "Text"}],
    "annotations": [{"id": 1, "image_id": 1, "category_id": 1, "bbox": [1, 2, 10, 4]},
                    {"id": 2, "image_id": 2, "category_id": 1, "bbox": [1, 2, 10, 4]},
                    {"id": 3, "image_id": 3, "category_id": 1, "bbox": [1, 2, 10, 4]}],
}, open("coco-problems/instances.json", "w"), indent=1)
