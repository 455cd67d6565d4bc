// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Byte-level tokens shown readably.
//
// GPT-2's byte-level BPE can split one character's UTF-8 bytes over several tokens (a Chinese
// character has three bytes and often becomes two or three tokens). The maps keep one row and
// column per token, so each token still needs its own label; shown one by one its bytes are
// meaningless (<E5><AE>). Read together, consecutive tokens' bytes form characters again:
//
//   tokens' bytes   [E5] [AE] [83 E5 A4 AA]      ("它太" in three tokens)
//   label           它   ⋯    ⋯太                the piece that starts a character shows it;
//                                                each later piece shows the continuation mark
//   text            它 (1/3)  它 (2/3)  它 (3/3) 太   which piece of which character, for hover
//                                                text and lists where a lone "⋯" says too little
//
// Everything else is labelled as displayLabelForBytes() does (gpt2_tokenizer.h): a leading
// space as ␣, "\n" as ↵, control bytes and bytes that form no character (invalid UTF-8, or a
// character the tokens end before completing) as <E5>-style hex codes.

#include <string>
#include <string_view>
#include <vector>

namespace attn::tok {

// U+22EF MIDLINE HORIZONTAL ELLIPSIS: "the character of the previous token continues here".
inline constexpr std::string_view kContinuationMark = "\u22EF";

struct TokenDisplay {
    std::string label;  // short, for map axes: "它", "⋯", "⋯太", "␣the", "<FF>"
    std::string text;   // long, for hover and lists: "它 (2/3)", "它 (3/3) 太", "␣the"
    std::string bytes;  // the token's raw bytes in hex: "AE", "83 E5 A4 AA"
    // Holds a piece of a character whose bytes other tokens share.
    bool split = false;
    // Ends with the first bytes of a character that no later token completes (a predicted
    // next token, or a text cut short); those bytes are in `label` as hex codes.
    bool cutOff = false;
};

// One entry per token, in order, for tokens with these raw bytes (consecutive in one text).
std::vector<TokenDisplay> displayTokens(const std::vector<std::string>& tokenBytes);

// The raw bytes in hex, separated by spaces ("E5 AE 83").
std::string hexBytes(std::string_view bytes);

}  // namespace attn::tok
