#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""pytorch_model.bin fixtures written by torch.save itself (Debian's python3-torch), for the
checkpoint reader's tests (tests/core/model/torch_checkpoint_test.cpp):

  gpt2_tiny.bin, gpt2_tiny_f16.bin, bert_tiny_bf16.bin
      the tensors of the safetensors fixtures in fixtures/models/, saved as model.state_dict()
      is (an OrderedDict with _metadata), with the output layer tied to the embedding (one
      storage for both, as GPT-2's lm_head is): the reader must give the same bytes.
  mixed.bin + mixed.json
      F32, F16, BF16 and I64 tensors, a view into another tensor's storage (non-zero offset),
      a tied alias, a 0-d tensor and an empty one; mixed.json lists name, dtype, shape, values.
  not_contiguous.bin   a transposed view (strides disagree with the shape): refused.
  runs_code.bin        a pickle that would call posix.system: refused by name, never run.
  legacy.bin           the pre-1.6 format (not a zip): refused with a clear message.
  compressed.bin       mixed.bin with its entries deflated: refused by name.
  llama2_sharded_f16/  the sharded decoder fixture as two .bin shards and their index.

Run with Debian's interpreter:  /usr/bin/python3 tests/reference/make_torch_checkpoints.py
The output is the same at every run but for legacy.bin, whose storage keys are object ids.
"""
import collections
import json
import os
import struct
import zipfile

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
MODELS = os.path.join(HERE, "fixtures", "models")
OUT = os.path.join(HERE, "fixtures", "torch")

NP = {"F32": np.float32, "F16": np.float16, "I64": np.int64}


def read_safetensors(path):
    raw = open(path, "rb").read()
    n = struct.unpack("<Q", raw[:8])[0]
    header = json.loads(raw[8:8 + n])
    out = collections.OrderedDict()
    for name in sorted(k for k in header if k != "__metadata__"):
        info = header[name]
        b, e = info["data_offsets"]
        blob = raw[8 + n + b:8 + n + e]
        if info["dtype"] == "BF16":
            bits = np.frombuffer(blob, dtype="<u2").astype(np.int32) << 16
            t = torch.from_numpy(bits.view(np.float32).copy()).to(torch.bfloat16)
        else:
            t = torch.from_numpy(np.frombuffer(blob, dtype=NP[info["dtype"]]).copy())
        out[name] = t.reshape(info["shape"])
    return out


def state_dict(tensors):
    sd = collections.OrderedDict(tensors)
    sd._metadata = collections.OrderedDict({"": {"version": 1}})
    return sd


def save(obj, name, **kwargs):
    torch.save(obj, os.path.join(OUT, name), **kwargs)


def model_cases():
    for case, source, embedding, output in [
            ("gpt2_tiny.bin", "gpt2_tiny", "wte.weight", "lm_head.weight"),
            ("gpt2_tiny_f16.bin", "gpt2_tiny_f16_prefixed", "transformer.wte.weight",
             "lm_head.weight"),
            ("bert_tiny_bf16.bin", "bert_tiny_bf16_prefixed", None, None)]:
        tensors = read_safetensors(os.path.join(MODELS, source, "model.safetensors"))
        if embedding is not None:
            tensors[output] = tensors[embedding]
        save(state_dict(tensors), case)


class RunsCode:
    def __reduce__(self):
        return (os.system, ("echo this must never run",))


def mixed():
    torch.manual_seed(5)
    base = torch.randn(4, 3)
    tensors = collections.OrderedDict()
    tensors["weight"] = base
    tensors["row"] = base[2]  # a view: offset 6 into weight's storage
    tensors["tied"] = base
    tensors["half"] = torch.randn(2, 5).to(torch.float16)
    tensors["brain"] = torch.randn(3).to(torch.bfloat16)
    tensors["position_ids"] = torch.arange(7).reshape(1, 7)
    tensors["scalar"] = torch.tensor(2.5)
    tensors["empty"] = torch.zeros(0, 4)
    save(state_dict(tensors), "mixed.bin")
    listing = []
    for name, t in tensors.items():
        dtype = {torch.float32: "F32", torch.float16: "F16", torch.bfloat16: "BF16",
                 torch.int64: "I64"}[t.dtype]
        listing.append({"name": name, "dtype": dtype, "shape": list(t.shape),
                        "values": t.double().flatten().tolist()})
    with open(os.path.join(OUT, "mixed.json"), "w") as f:
        json.dump(listing, f, indent=1)
        f.write("\n")
    save(collections.OrderedDict({"weight.T": base.t()}), "not_contiguous.bin")
    save(collections.OrderedDict({"weight": base, "payload": RunsCode()}), "runs_code.bin")
    save(collections.OrderedDict({"weight": base}), "legacy.bin",
         _use_new_zipfile_serialization=False)
    with zipfile.ZipFile(os.path.join(OUT, "mixed.bin")) as src, \
            zipfile.ZipFile(os.path.join(OUT, "compressed.bin"), "w",
                            compression=zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            fixed = zipfile.ZipInfo(info.filename, date_time=(1980, 1, 1, 0, 0, 0))
            fixed.compress_type = zipfile.ZIP_DEFLATED
            dst.writestr(fixed, src.read(info.filename))


def sharded_decoder():
    """The sharded Llama-2 fixture as the hub shards .bin checkpoints: one torch.save file per
    shard and pytorch_model.bin.index.json mapping each tensor to its file."""
    source = os.path.join(HERE, "fixtures", "decoders", "llama2_sharded_f16")
    target = os.path.join(OUT, "llama2_sharded_f16")
    os.makedirs(target, exist_ok=True)
    index = json.load(open(os.path.join(source, "model.safetensors.index.json")))
    renamed = {}
    for shard in sorted(set(index["weight_map"].values())):
        tensors = read_safetensors(os.path.join(source, shard))
        name = shard.replace("model-", "pytorch_model-").replace(".safetensors", ".bin")
        torch.save(state_dict(tensors), os.path.join(target, name))
        renamed[shard] = name
    index["weight_map"] = {k: renamed[v] for k, v in index["weight_map"].items()}
    with open(os.path.join(target, "pytorch_model.bin.index.json"), "w") as f:
        json.dump(index, f, indent=2)
        f.write("\n")


def main():
    os.makedirs(OUT, exist_ok=True)
    model_cases()
    sharded_decoder()
    mixed()


if __name__ == "__main__":
    main()
