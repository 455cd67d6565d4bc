// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The three calls of the attention kernel in an encoder-decoder (the textbook's section):
// the encoder's self-attention, the decoder's masked self-attention, and cross-attention (the
// decoder's queries against the encoder's keys and values). A decoder-only model has only the
// second.

namespace attn::model {

enum class AttentionKind { Encoder, Decoder, Cross };

// "encoder", "decoder", "cross": as the command line and the JSON name them.
inline const char* attentionKindName(AttentionKind kind)
{
    switch (kind) {
    case AttentionKind::Encoder: return "encoder";
    case AttentionKind::Decoder: return "decoder";
    case AttentionKind::Cross: return "cross";
    }
    return "";
}

}  // namespace attn::model
