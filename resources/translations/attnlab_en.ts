<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en_US">
<context>
    <name>attnlab::ArchitectureNote</name>
    <message numerus="yes">
        <source>Sliding window: in the layers that slide, a token sees only the %n latest tokens.</source>
        <translation>
            <numerusform>Sliding window: in the layers that slide, a token sees only the latest token.</numerusform>
            <numerusform>Sliding window: in the layers that slide, a token sees only the %n latest tokens.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>attnlab::CostPanel</name>
    <message numerus="yes">
        <source>Done: %n point(s). %1</source>
        <translation>
            <numerusform>Done: %n point. %1</numerusform>
            <numerusform>Done: %n points. %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Random inputs with this session&apos;s sizes and options (%4, %5; d_model = %1, d_k = %2, d_v = %3, %n head(s)), computed by the core on a worker thread: in double precision keeping every stage while that fits the memory budget, beyond it keeping only the weights, in float.</source>
        <translation>
            <numerusform>Random inputs with this session&apos;s sizes and options (%4, %5; d_model = %1, d_k = %2, d_v = %3, %n head), computed by the core on a worker thread: in double precision keeping every stage while that fits the memory budget, beyond it keeping only the weights, in float.</numerusform>
            <numerusform>Random inputs with this session&apos;s sizes and options (%4, %5; d_model = %1, d_k = %2, d_v = %3, %n heads), computed by the core on a worker thread: in double precision keeping every stage while that fits the memory budget, beyond it keeping only the weights, in float.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>attnlab::Document</name>
    <message numerus="yes">
        <source>pinned: before “%1” and %n later change(s)</source>
        <translation>
            <numerusform>pinned: before “%1” and %n later change</numerusform>
            <numerusform>pinned: before “%1” and %n later changes</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>attnlab::Figure</name>
    <message numerus="yes">
        <source>%n vector edit(s)</source>
        <translation>
            <numerusform>%n vector edit</numerusform>
            <numerusform>%n vector edits</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>attnlab::GeneratePanel</name>
    <message numerus="yes">
        <source>%n token(s) kept of the distribution (blue); grey: cut by top-k or top-p.</source>
        <translation>
            <numerusform>%n token kept of the distribution (blue); grey: cut by top-k or top-p.</numerusform>
            <numerusform>%n tokens kept of the distribution (blue); grey: cut by top-k or top-p.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>attnlab::HeadLink</name>
    <message numerus="yes">
        <source>The tokens are no longer the model&apos;s %n token(s); undo the change to carry the head into the model again.</source>
        <translation>
            <numerusform>The tokens are no longer the model&apos;s %n token; undo the change to carry the head into the model again.</numerusform>
            <numerusform>The tokens are no longer the model&apos;s %n tokens; undo the change to carry the head into the model again.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>The workbench has no map of the model&apos;s %n token(s).</source>
        <translation>
            <numerusform>The workbench has no map of the model&apos;s %n token.</numerusform>
            <numerusform>The workbench has no map of the model&apos;s %n tokens.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>attnlab::LongPanel</name>
    <message numerus="yes">
        <source>%1 queries × %2 keys, d_k = %3, %n head(s), in float. Of the n × m stages only the weights P are kept (%4 MiB); the scores of a row are recomputed from Q and K when you point at it or select it. Held: %5 MiB of the %6 MiB budget; every stage in double would need %7 MiB.</source>
        <translation>
            <numerusform>%1 queries × %2 keys, d_k = %3, %n head, in float. Of the n × m stages only the weights P are kept (%4 MiB); the scores of a row are recomputed from Q and K when you point at it or select it. Held: %5 MiB of the %6 MiB budget; every stage in double would need %7 MiB.</numerusform>
            <numerusform>%1 queries × %2 keys, d_k = %3, %n heads, in float. Of the n × m stages only the weights P are kept (%4 MiB); the scores of a row are recomputed from Q and K when you point at it or select it. Held: %5 MiB of the %6 MiB budget; every stage in double would need %7 MiB.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>attnlab::ModelChangePanel</name>
    <message numerus="yes">
        <source>Largest change of a weight, per layer and head (%n head edit(s); %1):</source>
        <translation>
            <numerusform>Largest change of a weight, per layer and head (%n head edit; %1):</numerusform>
            <numerusform>Largest change of a weight, per layer and head (%n head edits; %1):</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>attnlab::ModelDocument</name>
    <message numerus="yes">
        <source>Generate %n token(s)</source>
        <translation>
            <numerusform>Generate %n token</numerusform>
            <numerusform>Generate %n tokens</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>attnlab::ModelFigures</name>
    <message numerus="yes">
        <source>Head view: layer %1, %n head(s)</source>
        <translation>
            <numerusform>Head view: layer %1, %n head</numerusform>
            <numerusform>Head view: layer %1, %n heads</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>attnlab::ModelSnapshot</name>
    <message numerus="yes">
        <source>and %n more</source>
        <translation>
            <numerusform>and %n more</numerusform>
            <numerusform>and %n more</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>attnlab::ModelTrainerPanel</name>
    <message numerus="yes">
        <source>At most %n step(s) a second</source>
        <translation>
            <numerusform>At most %n step a second</numerusform>
            <numerusform>At most %n steps a second</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n layer(s), %1 heads: every head as training goes on</source>
        <translation>
            <numerusform>%n layer, %1 heads: every head as training goes on</numerusform>
            <numerusform>%n layers, %1 heads: every head as training goes on</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>attnlab::ModelWindow</name>
    <message numerus="yes">
        <source>%n token(s), %1 ms</source>
        <translation>
            <numerusform>%n token, %1 ms</numerusform>
            <numerusform>%n tokens, %1 ms</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n token(s), %1 written by the model; key/value cache and maps %2</source>
        <translation>
            <numerusform>%n token, %1 written by the model; key/value cache and maps %2</numerusform>
            <numerusform>%n tokens, %1 written by the model; key/value cache and maps %2</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>attnlab::SessionOps</name>
    <message numerus="yes">
        <source>%n vector edit(s) no longer fit and were dropped: %1.</source>
        <translation>
            <numerusform>%n vector edit no longer fits and was dropped: %1.</numerusform>
            <numerusform>%n vector edits no longer fit and were dropped: %1.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n vector edit(s) were on tokens that changed and were dropped: %1.</source>
        <translation>
            <numerusform>%n vector edit was on a token that changed and was dropped: %1.</numerusform>
            <numerusform>%n vector edits were on tokens that changed and were dropped: %1.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n vector edit(s) were on the old sequence and were dropped.</source>
        <translation>
            <numerusform>%n vector edit was on the old sequence and was dropped.</numerusform>
            <numerusform>%n vector edits were on the old sequence and were dropped.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n new token(s) got a random vector from the seed: %1. A token that only moved keeps its vector.</source>
        <translation>
            <numerusform>%n new token got a random vector from the seed: %1. A token that only moved keeps its vector.</numerusform>
            <numerusform>%n new tokens got a random vector from the seed: %1. A token that only moved keeps its vector.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>attnlab::StartPage</name>
    <message numerus="yes">
        <source>▼ %n more lesson(s) below</source>
        <translation>
            <numerusform>▼ %n more lesson below</numerusform>
            <numerusform>▼ %n more lessons below</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>attnlab::TrainerDisplay</name>
    <message numerus="yes">
        <source>P after %n step(s)</source>
        <translation>
            <numerusform>P after %n step</numerusform>
            <numerusform>P after %n steps</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>attnlab::TrainerPanel</name>
    <message numerus="yes">
        <source>Kept after %n step(s): one undo step (Edit ▸ Undo restores the session).</source>
        <translation>
            <numerusform>Kept after %n step: one undo step (Edit ▸ Undo restores the session).</numerusform>
            <numerusform>Kept after %n steps: one undo step (Edit ▸ Undo restores the session).</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1, learning rate %2, %n step(s).</source>
        <translation>
            <numerusform>%1, learning rate %2, %n step.</numerusform>
            <numerusform>%1, learning rate %2, %n steps.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>attnlab::WritingLessonLauncher</name>
    <message numerus="yes">
        <source>The Tang poem model writes %n character(s) after %1 at temperature %2, seed %3</source>
        <translation>
            <numerusform>The Tang poem model writes %n character after %1 at temperature %2, seed %3</numerusform>
            <numerusform>The Tang poem model writes %n characters after %1 at temperature %2, seed %3</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>It writes %n letter(s) after %1, always the most probable</source>
        <translation>
            <numerusform>It writes %n letter after %1, always the most probable</numerusform>
            <numerusform>It writes %n letters after %1, always the most probable</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>attnlab::cli</name>
    <message numerus="yes">
        <source>%1 has %n head(s); --head %2 does not exist</source>
        <translation>
            <numerusform>%1 has %n head; --head %2 does not exist</numerusform>
            <numerusform>%1 has %n heads; --head %2 does not exist</numerusform>
        </translation>
    </message>
</context>
</TS>
