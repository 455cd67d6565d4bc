<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>StageContent</name>
    <message>
        <source>(%1 × %2)</source>
        <translation>(%1 × %2)</translation>
    </message>
    <message>
        <source>key</source>
        <translation>键</translation>
    </message>
    <message>
        <source>query</source>
        <translation>查询</translation>
    </message>
    <message>
        <source>component</source>
        <translation>分量</translation>
    </message>
    <message>
        <source>self-attention</source>
        <translation>自注意力</translation>
    </message>
    <message>
        <source>causal self-attention</source>
        <translation>掩码（因果）自注意力</translation>
    </message>
    <message>
        <source>cross-attention</source>
        <translation>交叉注意力</translation>
    </message>
    <message>
        <source>Combined output: heads concatenated %1</source>
        <translation>合并输出：各头拼接 %1</translation>
    </message>
    <message>
        <source>Combined output: [head 1 … head %1]·W_O %2</source>
        <translation>合并输出：[头 1 … 头 %1]·W_O %2</translation>
    </message>
    <message>
        <source>There is nothing to compare with for head %1: pin the weights first (Attention ▸ Pin weights), then edit.</source>
        <translation>头 %1 没有可比较的对象：请先固定权重（注意力 ▸ 固定权重），再进行编辑。</translation>
    </message>
    <message>
        <source>Difference (nothing pinned)</source>
        <translation>差值（未固定权重）</translation>
    </message>
    <message>
        <source>Difference after − before — head %1 %2</source>
        <translation>差值（之后 − 之前） — 头 %1 %2</translation>
    </message>
    <message>
        <source>X: token embeddings %1</source>
        <translation>X：词向量 %1</translation>
    </message>
    <message>
        <source>X %1</source>
        <translation>X %1</translation>
    </message>
    <message>
        <source>Q = X·W_Q %1</source>
        <translation>Q = X·W_Q %1</translation>
    </message>
    <message>
        <source>K = Y·W_K %1</source>
        <translation>K = Y·W_K %1</translation>
    </message>
    <message>
        <source>K = X·W_K %1</source>
        <translation>K = X·W_K %1</translation>
    </message>
    <message>
        <source>V = Y·W_V %1</source>
        <translation>V = Y·W_V %1</translation>
    </message>
    <message>
        <source>V = X·W_V %1</source>
        <translation>V = X·W_V %1</translation>
    </message>
    <message>
        <source>S = vᵀ tanh(W_a q + U_a k) %1</source>
        <translation>S = vᵀ tanh(W_a q + U_a k) %1</translation>
    </message>
    <message>
        <source>S additive %1</source>
        <translation>S（加性）%1</translation>
    </message>
    <message>
        <source>S = Q·Kᵀ %1</source>
        <translation>S = Q·Kᵀ %1</translation>
    </message>
    <message>
        <source>S = QKᵀ %1</source>
        <translation>S = QKᵀ %1</translation>
    </message>
    <message>
        <source>S / √d_k, d_k = %1 %2</source>
        <translation>S / √d_k，d_k = %1 %2</translation>
    </message>
    <message>
        <source>S / √%1 %2</source>
        <translation>S / √%1 %2</translation>
    </message>
    <message>
        <source>S / τ, τ = %1 %2</source>
        <translation>S / τ，τ = %1 %2</translation>
    </message>
    <message>
        <source>S / %1 %2</source>
        <translation>S / %1 %2</translation>
    </message>
    <message>
        <source>S (unscaled) %1</source>
        <translation>S（未缩放）%1</translation>
    </message>
    <message>
        <source>S unscaled %1</source>
        <translation>S（未缩放）%1</translation>
    </message>
    <message>
        <source>Mask: 1 = may attend %1</source>
        <translation>掩码：1 = 可以关注 %1</translation>
    </message>
    <message>
        <source>Mask %1</source>
        <translation>掩码 %1</translation>
    </message>
    <message>
        <source>P = softmax of each row %1</source>
        <translation>P = 逐行 softmax %1</translation>
    </message>
    <message>
        <source>P %1</source>
        <translation>P %1</translation>
    </message>
    <message>
        <source>Output = P·V %1</source>
        <translation>输出 = P·V %1</translation>
    </message>
    <message>
        <source>O = PV %1</source>
        <translation>O = PV %1</translation>
    </message>
    <message>
        <source>Difference after − before %1</source>
        <translation>差值（之后 − 之前）%1</translation>
    </message>
    <message>
        <source>Combined output %1</source>
        <translation>合并输出 %1</translation>
    </message>
    <message>
        <source>Q = RoPE(X·W_Q) %1</source>
        <translation>Q = RoPE(X·W_Q) %1</translation>
    </message>
    <message>
        <source>K = RoPE(Y·W_K) %1</source>
        <translation>K = RoPE(Y·W_K) %1</translation>
    </message>
    <message>
        <source>K = RoPE(X·W_K) %1</source>
        <translation>K = RoPE(X·W_K) %1</translation>
    </message>
</context>
<context>
    <name>attnlab::AlignLessonLauncher</name>
    <message>
        <source>Train the translator</source>
        <translation>训练翻译模型</translation>
    </message>
    <message>
        <source>The model window with its trainer on the task Dates → English</source>
        <translation>打开模型窗口，训练器停在“日期 → 英文”任务上</translation>
    </message>
    <message>
        <source>Open the built-in translator</source>
        <translation>打开内置翻译模型</translation>
    </message>
    <message>
        <source>The translator this recipe trains, shipped with AttnLab: no training needed</source>
        <translation>按这套方法训练出的翻译模型，随 AttnLab 附带：不用训练</translation>
    </message>
</context>
<context>
    <name>attnlab::AlignmentCurvePlot</name>
    <message>
        <source>Step</source>
        <translation>步数</translation>
    </message>
    <message>
        <source>Alignment</source>
        <translation>对齐度</translation>
    </message>
    <message>
        <source>Alignment, best head in black</source>
        <translation>对齐度（黑线为最好的头）</translation>
    </message>
    <message>
        <source>best head</source>
        <translation>最好的头</translation>
    </message>
    <message>
        <source>L%1 H%2</source>
        <translation>L%1 H%2</translation>
    </message>
</context>
<context>
    <name>attnlab::ArchitectureNote</name>
    <message>
        <source>Grouped-query attention: the %1 query heads share %2 key/value heads, %3 to a group (bracketed above the maps), so a key or value edit changes every head of its group.</source>
        <translation>分组查询注意力：%1 个查询头共用 %2 个键值头，每组 %3 个（图上方用括号标出），所以编辑一个键或值会改变同组的每个头。</translation>
    </message>
    <message>
        <source>Rotary positions: no position vector is added; each query and key is turned by an angle proportional to its position (θ = %1), so a score depends on how far apart the two tokens are.</source>
        <translation>旋转位置编码：不加位置向量；每个查询和键按与位置成正比的角度旋转（θ = %1），所以得分取决于两个词元相距多远。</translation>
    </message>
    <message numerus="yes">
        <source>Sliding window: in the layers that slide, a token sees only the %n latest tokens.</source>
        <translation>
            <numerusform>滑动窗口：在使用滑动窗口的层里，一个词元只看最近的 %n 个词元。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>attnlab::AtomicFile</name>
    <message>
        <source>the disk is full: %1 needed, %2 free</source>
        <translation>磁盘已满：需要 %1，剩余 %2</translation>
    </message>
    <message>
        <source>a file</source>
        <translation>一个文件</translation>
    </message>
    <message>
        <source>a folder</source>
        <translation>一个文件夹</translation>
    </message>
    <message>
        <source>a FIFO (named pipe)</source>
        <translation>一个 FIFO（命名管道）</translation>
    </message>
    <message>
        <source>a character device</source>
        <translation>一个字符设备</translation>
    </message>
    <message>
        <source>a block device</source>
        <translation>一个块设备</translation>
    </message>
    <message>
        <source>a socket</source>
        <translation>一个套接字</translation>
    </message>
    <message>
        <source>not a regular file</source>
        <translation>不是普通文件</translation>
    </message>
    <message>
        <source>an unknown amount</source>
        <translation>未知大小</translation>
    </message>
    <message>
        <source>it is %1, which AttnLab does not write to</source>
        <translation>它是%1，AttnLab 不会写入它</translation>
    </message>
    <message>
        <source>it is a FIFO (named pipe) that nobody is reading</source>
        <translation>它是一个没有读取方的 FIFO（命名管道）</translation>
    </message>
    <message>
        <source>no file name was given</source>
        <translation>没有给出文件名</translation>
    </message>
    <message>
        <source>the folder %1 does not exist</source>
        <translation>文件夹%1不存在</translation>
    </message>
    <message>
        <source>you may not write this file (permission denied); it is left as it was</source>
        <translation>你没有写这个文件的权限（权限被拒绝）；它保持原样</translation>
    </message>
    <message>
        <source>you may not write in the folder %1 (permission denied)</source>
        <translation>你没有在文件夹%1中写入的权限（权限被拒绝）</translation>
    </message>
    <message>
        <source>it is the same file as the input %1, which it would overwrite</source>
        <translation>它与输入%1是同一个文件，写出会覆盖它</translation>
    </message>
    <message>
        <source>it is the same file as the output %1; give each output its own file</source>
        <translation>它与输出%1是同一个文件；请为每个输出给一个单独的文件</translation>
    </message>
    <message>
        <source>it is a folder AttnLab did not make (it holds %1); nothing in it was changed: choose a new or empty folder</source>
        <translation>这是一个不是由 AttnLab 创建的文件夹（其中有 %1）；里面的内容没有改动：请选择一个新的或空的文件夹</translation>
    </message>
</context>
<context>
    <name>attnlab::BoundedRead</name>
    <message>
        <source>cannot be read: %1</source>
        <translation>无法读取：%1</translation>
    </message>
    <message>
        <source>the file is too large: such a file may be at most %1 MiB.</source>
        <translation>文件太大：此类文件最多 %1 MiB。</translation>
    </message>
    <message>
        <source>the file does not exist.</source>
        <translation>文件不存在。</translation>
    </message>
    <message>
        <source>this is a folder, not a file.</source>
        <translation>这是一个文件夹，不是文件。</translation>
    </message>
    <message>
        <source>it is %1, not a file; it was not read.</source>
        <translation>它是%1，不是文件；未读取。</translation>
    </message>
</context>
<context>
    <name>attnlab::BuiltinModels</name>
    <message>
        <source>Induction heads (2 attention-only layers, random letters)</source>
        <translation>归纳头（两层纯注意力模型，随机字母）</translation>
    </message>
    <message>
        <source>Tang poems 唐诗 (trained on 300 poems)</source>
        <translation>唐诗（在唐诗三百首上训练）</translation>
    </message>
    <message>
        <source>there is no built-in model &quot;%1&quot; (there are: %2)</source>
        <translation>没有名为“%1”的内置模型（现有：%2）</translation>
    </message>
    <message>
        <source>the built-in model &quot;%1&quot; lacks %2</source>
        <translation>内置模型“%1”缺少 %2</translation>
    </message>
    <message>
        <source>Dates translator 日期 → English (an encoder-decoder, 2 + 2 layers)</source>
        <translation>日期翻译（中文日期 → 英文，编码器-解码器，2 + 2 层）</translation>
    </message>
</context>
<context>
    <name>attnlab::CellInfo</name>
    <message>
        <source>query “%1” → key “%2”</source>
        <translation>查询“%1”→ 键“%2”</translation>
    </message>
    <message>
        <source>q·k = %1</source>
        <translation>q·k = %1</translation>
    </message>
    <message>
        <source>additive score = %1</source>
        <translation>加性分数 = %1</translation>
    </message>
    <message>
        <source>scaled score = %1</source>
        <translation>缩放后分数 = %1</translation>
    </message>
    <message>
        <source>masked: yes (weight forced to 0)</source>
        <translation>掩码：是（权重强制为 0）</translation>
    </message>
    <message>
        <source>masked: no</source>
        <translation>掩码：否</translation>
    </message>
    <message>
        <source>weight = %1</source>
        <translation>权重 = %1</translation>
    </message>
</context>
<context>
    <name>attnlab::Commands</name>
    <message>
        <source>Edit key %1</source>
        <translation>编辑键 %1</translation>
    </message>
    <message>
        <source>Edit query %1</source>
        <translation>编辑查询 %1</translation>
    </message>
    <message>
        <source>Edit value %1</source>
        <translation>编辑值 %1</translation>
    </message>
</context>
<context>
    <name>attnlab::ControlsPanel</name>
    <message>
        <source>Self-attention</source>
        <translation>自注意力</translation>
    </message>
    <message>
        <source>Masked (causal) self-attention</source>
        <translation>掩码（因果）自注意力</translation>
    </message>
    <message>
        <source>Cross-attention</source>
        <translation>交叉注意力</translation>
    </message>
    <message>
        <source>Self: Q, K, V from one sequence. Causal: every future position is masked before the softmax. Cross: Q from the target, K and V from the source sequence.</source>
        <translation>自注意力：Q、K、V 来自同一序列。掩码（因果）：softmax 之前屏蔽所有未来位置。交叉注意力：Q 来自目标序列，K 和 V 来自源序列。</translation>
    </message>
    <message>
        <source>&amp;Mode:</source>
        <translation>模式(&amp;M)：</translation>
    </message>
    <message>
        <source>Divide by √d_k</source>
        <translation>除以 √d_k</translation>
    </message>
    <message>
        <source>No scaling</source>
        <translation>不缩放</translation>
    </message>
    <message>
        <source>Temperature τ</source>
        <translation>温度 τ</translation>
    </message>
    <message>
        <source>Without scaling the variance of q·k grows with d_k, the softmax saturates to nearly one-hot and its gradient vanishes.</source>
        <translation>不缩放时，q·k 的方差随 d_k 增大，softmax 进入饱和区、输出接近独热，梯度趋近于零。</translation>
    </message>
    <message>
        <source>&amp;Scaling:</source>
        <translation>缩放(&amp;S)：</translation>
    </message>
    <message>
        <source>Scores are divided by τ before the softmax.</source>
        <translation>softmax 之前先把分数除以 τ。</translation>
    </message>
    <message>
        <source>&amp;Temperature τ:</source>
        <translation>温度 τ(&amp;T)：</translation>
    </message>
    <message>
        <source>Key dimension d_k. Changing it draws new projections from the seed.</source>
        <translation>键维度 d_k。修改后会用种子重新抽取投影矩阵。</translation>
    </message>
    <message>
        <source>&amp;d_k:</source>
        <translation>d_k(&amp;D)：</translation>
    </message>
    <message>
        <source>Scaled dot product</source>
        <translation>缩放点积</translation>
    </message>
    <message>
        <source>Additive (vᵀ tanh(W q + U k))</source>
        <translation>加性（vᵀ tanh(W q + U k)）</translation>
    </message>
    <message>
        <source>Dot-product scoring is one dense matrix product; additive scoring runs a small feed-forward network for every pair.</source>
        <translation>点积打分只需一次稠密矩阵乘法；加性打分要为每一对查询和键运行一个小型前馈网络。</translation>
    </message>
    <message>
        <source>S&amp;core:</source>
        <translation>打分(&amp;C)：</translation>
    </message>
    <message>
        <source>One projection for Q, K and V</source>
        <translation>Q、K、V 共用一个投影矩阵</translation>
    </message>
    <message>
        <source>W_K and W_V taken equal to W_Q: a token then mostly attends to itself.</source>
        <translation>令 W_K 和 W_V 等于 W_Q：此时每个词主要关注它自己。</translation>
    </message>
    <message>
        <source>&amp;Heads:</source>
        <translation>头数(&amp;H)：</translation>
    </message>
    <message>
        <source>The head shown in the maps and panels.</source>
        <translation>热图和各面板中显示的头。</translation>
    </message>
    <message>
        <source>Head &amp;shown:</source>
        <translation>显示的头(&amp;S)：</translation>
    </message>
    <message>
        <source>Head %1</source>
        <translation>头 %1</translation>
    </message>
    <message>
        <source>Number of heads. The heads that stay keep their matrices; new ones are drawn from the seed.</source>
        <translation>头的数量。保留下来的头保持原有矩阵；新增的头由种子随机生成。</translation>
    </message>
    <message>
        <source>&amp;Rotary positions (RoPE)</source>
        <translation>旋转位置编码（RoPE）(&amp;R)</translation>
    </message>
    <message>
        <source>Turns each query and key by its position before the scores, pair of coordinates by pair, so that q·k depends on the distance between the tokens.</source>
        <translation>在打分之前，按位置把每个查询和键逐对坐标旋转，使 q·k 只取决于词与词之间的距离。</translation>
    </message>
    <message>
        <source>The base θ of the rotation: pair i turns by position × θ^(−2i/d_k). A smaller θ turns faster, so the preference for near tokens decays and oscillates sooner.</source>
        <translation>旋转的基数 θ：第 i 对坐标转过“位置 × θ^(−2i/d_k)”。θ 越小转得越快，对邻近词的偏好衰减和振荡得越早。</translation>
    </message>
    <message>
        <source>RoPE &amp;base θ:</source>
        <translation>RoPE 基数 θ(&amp;B)：</translation>
    </message>
</context>
<context>
    <name>attnlab::CostPanel</name>
    <message>
        <source>Up to &amp;n:</source>
        <translation>最大 &amp;n：</translation>
    </message>
    <message>
        <source>The longest sequence to measure; shorter ones (128, 256, …) come first.</source>
        <translation>要测量的最长序列；较短的（128、256、…）先测。</translation>
    </message>
    <message>
        <source>&amp;Measure</source>
        <translation>测量(&amp;M)</translation>
    </message>
    <message>
        <source>S&amp;top</source>
        <translation>停止(&amp;T)</translation>
    </message>
    <message>
        <source>Press Measure to time the core.</source>
        <translation>按“测量”为核心计时。</translation>
    </message>
    <message>
        <source>Measuring…</source>
        <translation>正在测量…</translation>
    </message>
    <message>
        <source>Stopping after the point being measured…</source>
        <translation>测完当前这个点后停止…</translation>
    </message>
    <message>
        <source>n = %1: %2 s; weights %3 (n²·h·8 bytes), every kept stage %4.</source>
        <translation>n = %1：%2 秒；权重 %3（n²·h·8 字节），保存的全部各步 %4。</translation>
    </message>
    <message>
        <source>Stopped. %1</source>
        <translation>已停止。%1</translation>
    </message>
    <message numerus="yes">
        <source>Done: %n point(s). %1</source>
        <translation>
            <numerusform>完成：%n 个点。%1</numerusform>
        </translation>
    </message>
    <message>
        <source>additive scores</source>
        <translation>加性打分</translation>
    </message>
    <message>
        <source>dot-product scores</source>
        <translation>点积打分</translation>
    </message>
    <message>
        <source>%1, source as long as the target</source>
        <translation>%1，源序列与目标序列等长</translation>
    </message>
    <message>
        <source>The session changed: press Measure to time this one.</source>
        <translation>会话已改变：按“测量”为当前会话计时。</translation>
    </message>
    <message numerus="yes">
        <source>Random inputs with this session&apos;s sizes and options (%4, %5; d_model = %1, d_k = %2, d_v = %3, %n head(s)), computed by the core on a worker thread: in double precision keeping every stage while that fits the memory budget, beyond it keeping only the weights, in float.</source>
        <translation>
            <numerusform>随机输入，尺寸和选项取自当前会话（%4，%5；d_model = %1，d_k = %2，d_v = %3，%n 个头），由核心在后台线程上计算：内存预算放得下时以双精度保存每一步，超出后只以单精度保存权重。</numerusform>
        </translation>
    </message>
    <message>
        <source>n queries × n keys = n² scores: n = 1,000 gives 10⁶, n = 100,000 gives 10¹⁰ — %1 as doubles for one matrix. The memory budget is %2: every stage (scores, scaled scores, weights, mask, Q, K, V, output) fits in double up to n = %3.</source>
        <translation>n 个查询 × n 个键 = n² 个分数：n 为 1,000 时是 10⁶ 个，n 为 100,000 时是 10¹⁰ 个——按双精度数存，单是一个矩阵就要 %1。内存预算是 %2：以双精度保存每一步（分数、缩放后的分数、权重、掩码、Q、K、V、输出），n 最大为 %3。</translation>
    </message>
    <message>
        <source>Keeping only the weights, in float (n²·h·4 bytes; a row&apos;s scores are recomputed when needed), reaches n = %1.</source>
        <translation>只以单精度保存权重（n²·h·4 字节；某一行的分数需要时再重新计算），n 可达 %1。</translation>
    </message>
    <message>
        <source>n = %1 is refused, not attempted: it would need %2, more than the memory budget of %3. The largest n that fits is %4.</source>
        <translation>n = %1 被拒绝，没有尝试计算：它需要 %2，超过了内存预算（%3）。能放得下的最大 n 是 %4。</translation>
    </message>
    <message>
        <source>n = %1: %2 s; weights %3 (n²·h·4 bytes, float), and only the weights were kept: %4 in all.</source>
        <translation>n = %1：%2 秒；权重 %3（n²·h·4 字节，单精度），只保存了权重：共 %4。</translation>
    </message>
</context>
<context>
    <name>attnlab::CostPlot</name>
    <message>
        <source>n = 1,000
10⁶ scores</source>
        <translation>n = 1,000
10⁶ 个分数</translation>
    </message>
    <message>
        <source>n = 100,000
10¹⁰ scores
= %1 as doubles</source>
        <translation>n = 100,000
10¹⁰ 个分数
双精度共 %1</translation>
    </message>
    <message>
        <source>Sequence length n (log scale)</source>
        <translation>序列长度 n（对数坐标）</translation>
    </message>
    <message>
        <source>Compute time (s)</source>
        <translation>计算时间（秒）</translation>
    </message>
    <message>
        <source>Measured time</source>
        <translation>实测时间</translation>
    </message>
    <message>
        <source>Weights held (n²·h·8 bytes)</source>
        <translation>权重占用（n²·h·8 字节）</translation>
    </message>
    <message>
        <source>Estimate: every kept stage</source>
        <translation>估计：保存的全部各步</translation>
    </message>
    <message>
        <source>memory budget %1</source>
        <translation>内存预算 %1</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>内存</translation>
    </message>
    <message>
        <source>n² line through the last point</source>
        <translation>过最后一个点的 n² 线</translation>
    </message>
    <message>
        <source>Measured time, only the weights kept (float)</source>
        <translation>实测时间，只保存权重（单精度）</translation>
    </message>
    <message>
        <source>Weights held in float (n²·h·4 bytes)</source>
        <translation>单精度权重占用（n²·h·4 字节）</translation>
    </message>
    <message>
        <source>Estimate: only the weights kept</source>
        <translation>估计：只保存权重</translation>
    </message>
</context>
<context>
    <name>attnlab::CrossLink</name>
    <message>
        <source>The workbench no longer holds the translator&apos;s cross head (its mode or tokens changed); undo the change to carry it into the translator again.</source>
        <translation>工作台中已不再是翻译器的交叉注意力头（模式或词元已改变）；撤销该更改即可再次把它带回翻译器。</translation>
    </message>
    <message>
        <source>The workbench has no map of the translator&apos;s tokens.</source>
        <translation>工作台没有翻译器词元的注意力图。</translation>
    </message>
    <message>
        <source>The head&apos;s values are %1 wide, the model&apos;s heads %2 (d_v changed); undo the change to carry the head into the translator again.</source>
        <translation>该头的值向量宽度为%1，模型的头为%2（d_v 已改变）；撤销该更改即可再次把该头带回翻译器。</translation>
    </message>
</context>
<context>
    <name>attnlab::Document</name>
    <message>
        <source>Change mode</source>
        <translation>切换模式</translation>
    </message>
    <message>
        <source>Change scaling</source>
        <translation>切换缩放</translation>
    </message>
    <message>
        <source>Change temperature</source>
        <translation>修改温度</translation>
    </message>
    <message>
        <source>Change score function</source>
        <translation>切换打分函数</translation>
    </message>
    <message>
        <source>Change d_k</source>
        <translation>修改 d_k</translation>
    </message>
    <message>
        <source>Share projections</source>
        <translation>共用投影</translation>
    </message>
    <message>
        <source>Separate projections</source>
        <translation>分开投影</translation>
    </message>
    <message>
        <source>Change number of heads</source>
        <translation>修改头数</translation>
    </message>
    <message>
        <source>A sequence needs at least one token.</source>
        <translation>序列至少需要一个词元。</translation>
    </message>
    <message>
        <source>Edit source</source>
        <translation>编辑源序列</translation>
    </message>
    <message>
        <source>Edit target</source>
        <translation>编辑目标序列</translation>
    </message>
    <message>
        <source>Edit %1</source>
        <translation>编辑 %1</translation>
    </message>
    <message>
        <source>Randomise projections (seed %1)</source>
        <translation>随机生成投影（种子 %1）</translation>
    </message>
    <message>
        <source>Paint mask</source>
        <translation>绘制掩码</translation>
    </message>
    <message>
        <source>The pinned weights were dropped: they belonged to other tokens.</source>
        <translation>已固定的权重被丢弃：它们属于另一组词元。</translation>
    </message>
    <message>
        <source>Keep trained matrices</source>
        <translation>保留训练得到的矩阵</translation>
    </message>
    <message>
        <source>pinned: weights of changes that were undone</source>
        <translation>已固定：来自已撤销的更改的权重</translation>
    </message>
    <message>
        <source>pinned: the weights shown (edit something to compare)</source>
        <translation>已固定：当前显示的权重（做一处编辑即可比较）</translation>
    </message>
    <message>
        <source>pinned: before “%1”</source>
        <translation>已固定：“%1”之前</translation>
    </message>
    <message numerus="yes">
        <source>pinned: before “%1” and %n later change(s)</source>
        <translation>
            <numerusform>已固定：“%1”之前（其后还有 %n 处更改）</numerusform>
        </translation>
    </message>
    <message>
        <source>pinned: after “%1”, since undone</source>
        <translation>已固定：“%1”之后（该步已撤销）</translation>
    </message>
    <message>
        <source>Change RoPE θ</source>
        <translation>修改 RoPE 的 θ</translation>
    </message>
    <message>
        <source>Turn on rotary positions (RoPE)</source>
        <translation>打开旋转位置编码（RoPE）</translation>
    </message>
    <message>
        <source>Turn off rotary positions (RoPE)</source>
        <translation>关闭旋转位置编码（RoPE）</translation>
    </message>
</context>
<context>
    <name>attnlab::ExportActions</name>
    <message>
        <source>E&amp;xport</source>
        <translation>导出(&amp;X)</translation>
    </message>
    <message>
        <source>&amp;Figure…</source>
        <translation>图(&amp;F)…</translation>
    </message>
    <message>
        <source>Save a map, a pipeline stage, the difference map, all heads or the whole pipeline as PNG, SVG or PDF.</source>
        <translation>把热图、流水线的某一步、差值图、所有头或整条流水线保存为 PNG、SVG 或 PDF。</translation>
    </message>
    <message>
        <source>&amp;Copy figure to clipboard</source>
        <translation>复制图到剪贴板(&amp;C)</translation>
    </message>
    <message>
        <source>Copy the map of the current tab as an image.</source>
        <translation>把当前标签页的热图作为图片复制。</translation>
    </message>
    <message>
        <source>Numbers as &amp;JSON…</source>
        <translation>数值导出为 &amp;JSON…</translation>
    </message>
    <message>
        <source>Numbers as CSV &amp;files, one per matrix…</source>
        <translation>数值导出为多个 CSV 文件（每个矩阵一个）(&amp;F)…</translation>
    </message>
    <message>
        <source>Numbers as one CSV &amp;table…</source>
        <translation>数值导出为一张 CSV 表(&amp;T)…</translation>
    </message>
    <message>
        <source>before = the pinned weights</source>
        <translation>之前 = 固定的权重</translation>
    </message>
    <message>
        <source>Export figure</source>
        <translation>导出图</translation>
    </message>
    <message>
        <source>PNG image (*.png);;SVG vector image (*.svg);;PDF document (*.pdf)</source>
        <translation>PNG 图片 (*.png);;SVG 矢量图 (*.svg);;PDF 文档 (*.pdf)</translation>
    </message>
    <message>
        <source>Copy figure</source>
        <translation>复制图</translation>
    </message>
    <message>
        <source>Figure copied to the clipboard.</source>
        <translation>图已复制到剪贴板。</translation>
    </message>
    <message>
        <source>Export numbers as JSON</source>
        <translation>将数值导出为 JSON</translation>
    </message>
    <message>
        <source>JSON (*.json)</source>
        <translation>JSON (*.json)</translation>
    </message>
    <message>
        <source>Export numbers as one CSV table</source>
        <translation>将数值导出为一张 CSV 表</translation>
    </message>
    <message>
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message>
        <source>Export numbers as CSV files (one per matrix) into a folder</source>
        <translation>将数值导出为 CSV 文件（每个矩阵一个）到文件夹</translation>
    </message>
    <message>
        <source>Exported to %1</source>
        <translation>已导出到 %1</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <source>Export numbers</source>
        <translation>导出数值</translation>
    </message>
    <message>
        <source>Export anyway? (A figure is usually what a long sequence needs.)</source>
        <translation>仍然导出吗？（对长序列来说，导出图通常更合适。）</translation>
    </message>
    <message>
        <source>This view has marks from the presenter view. Export it as presented, with the marks?</source>
        <translation>这个视图在演示视图中有标记。按演示时的样子连同标记一起导出吗？</translation>
    </message>
    <message>
        <source>Export figure with marks</source>
        <translation>导出带标记的图</translation>
    </message>
    <message>
        <source>There is no map to export yet.</source>
        <translation>还没有可导出的图。</translation>
    </message>
    <message>
        <source>%1 tokens; only the weights were kept, in float; each pixel shows the largest weight of the cells it covers.</source>
        <translation>%1 个词元；只保留了权重（float）；每个像素显示它覆盖的单元格中的最大权重。</translation>
    </message>
    <message>
        <source>A long session keeps only its weights: export its map as a figure (Ctrl+E).</source>
        <translation>长序列会话只保留权重：请将它的图导出为图片（Ctrl+E）。</translation>
    </message>
    <message>
        <source>Export the map</source>
        <translation>导出图</translation>
    </message>
</context>
<context>
    <name>attnlab::Figure</name>
    <message>
        <source>scaled by √d_k</source>
        <translation>除以 √d_k 缩放</translation>
    </message>
    <message>
        <source>scaled by τ = %1</source>
        <translation>除以 τ = %1 缩放</translation>
    </message>
    <message>
        <source>unscaled</source>
        <translation>未缩放</translation>
    </message>
    <message>
        <source>Attention weights P — head %1 %2</source>
        <translation>注意力权重 P — 头 %1 %2</translation>
    </message>
    <message>
        <source>X: token embeddings</source>
        <translation>X：词向量</translation>
    </message>
    <message>
        <source>Q: queries</source>
        <translation>Q：查询</translation>
    </message>
    <message>
        <source>K: keys</source>
        <translation>K：键</translation>
    </message>
    <message>
        <source>V: values</source>
        <translation>V：值</translation>
    </message>
    <message>
        <source>S: raw scores</source>
        <translation>S：原始分数</translation>
    </message>
    <message>
        <source>Scaled scores</source>
        <translation>缩放后的分数</translation>
    </message>
    <message>
        <source>Mask</source>
        <translation>掩码</translation>
    </message>
    <message>
        <source>Attention weights P</source>
        <translation>注意力权重 P</translation>
    </message>
    <message>
        <source>Head output P·V</source>
        <translation>头的输出 P·V</translation>
    </message>
    <message>
        <source>Combined output (all heads, W_O)</source>
        <translation>合并输出（所有头，W_O）</translation>
    </message>
    <message>
        <source>Difference map (after − before)</source>
        <translation>差值图（之后 − 之前）</translation>
    </message>
    <message>
        <source>Whole pipeline strip</source>
        <translation>整条流水线</translation>
    </message>
    <message>
        <source>There is no result to export.</source>
        <translation>没有可导出的结果。</translation>
    </message>
    <message>
        <source>There is no head %1: the session has %2 head(s).</source>
        <translation>没有头 %1：本会话只有 %2 个头。</translation>
    </message>
    <message>
        <source>P = softmax of each row %1</source>
        <translation>P = 逐行 softmax %1</translation>
    </message>
    <message>
        <source>Head %1</source>
        <translation>头 %1</translation>
    </message>
    <message>
        <source>Head %1 · %2</source>
        <translation>头 %1 · %2</translation>
    </message>
    <message>
        <source>all %1 heads</source>
        <translation>全部 %1 个头</translation>
    </message>
    <message>
        <source>head %1 of %2</source>
        <translation>头 %1 / %2</translation>
    </message>
    <message>
        <source>The attention pipeline, %1</source>
        <translation>注意力流水线，%1</translation>
    </message>
    <message>
        <source>%1, %2</source>
        <translation>%1，%2</translation>
    </message>
    <message>
        <source>additive scores</source>
        <translation>加性打分</translation>
    </message>
    <message>
        <source>dot-product scores</source>
        <translation>点积打分</translation>
    </message>
    <message>
        <source>shared projections</source>
        <translation>共用投影矩阵</translation>
    </message>
    <message numerus="yes">
        <source>%n vector edit(s)</source>
        <translation>
            <numerusform>%n 处向量编辑</numerusform>
        </translation>
    </message>
    <message>
        <source>colour range fixed to [%1, %2]</source>
        <translation>色标范围固定为 [%1, %2]</translation>
    </message>
    <message>
        <source>weights on [0, 1]</source>
        <translation>权重范围 [0, 1]</translation>
    </message>
</context>
<context>
    <name>attnlab::FigureDialog</name>
    <message>
        <source>Export figure</source>
        <translation>导出图</translation>
    </message>
    <message>
        <source>&amp;Show:</source>
        <translation>显示(&amp;S)：</translation>
    </message>
    <message>
        <source>Head %1</source>
        <translation>头 %1</translation>
    </message>
    <message>
        <source>All heads</source>
        <translation>所有头</translation>
    </message>
    <message>
        <source>&amp;Head:</source>
        <translation>头(&amp;H)：</translation>
    </message>
    <message>
        <source> px</source>
        <translation> 像素</translation>
    </message>
    <message>
        <source>&amp;Size:</source>
        <translation>尺寸(&amp;S)：</translation>
    </message>
    <message>
        <source>%1× (PNG %2)</source>
        <translation>%1×（PNG %2）</translation>
    </message>
    <message>
        <source>screen</source>
        <translation>屏幕</translation>
    </message>
    <message>
        <source>print</source>
        <translation>打印</translation>
    </message>
    <message>
        <source>PNG pixels per unit of size; SVG and PDF are vectors at any scale.</source>
        <translation>每个尺寸单位对应的 PNG 像素数；SVG 和 PDF 为矢量图，可任意缩放。</translation>
    </message>
    <message>
        <source>S&amp;cale:</source>
        <translation>倍率(&amp;C)：</translation>
    </message>
    <message>
        <source>Weights on [0, 1], other matrices on their own range</source>
        <translation>权重用 [0, 1]，其他矩阵用各自的范围</translation>
    </message>
    <message>
        <source>Every map on its own range</source>
        <translation>每张热图用各自的范围</translation>
    </message>
    <message>
        <source>One fixed range for every map:</source>
        <translation>所有热图用同一固定范围：</translation>
    </message>
    <message>
        <source>Keeps several exports comparable: the same colour means the same number in every figure.</source>
        <translation>让多次导出可以相互比较：同一种颜色在每张图里都代表同一个数值。</translation>
    </message>
    <message>
        <source>to</source>
        <translation>至</translation>
    </message>
    <message>
        <source>Colour range:</source>
        <translation>色标范围：</translation>
    </message>
    <message>
        <source>&amp;Export…</source>
        <translation>导出(&amp;E)…</translation>
    </message>
    <message>
        <source>S&amp;quare cells</source>
        <translation>正方形单元格(&amp;Q)</translation>
    </message>
    <message>
        <source>Every cell as wide as it is high; clear to let the cells fill the figure.</source>
        <translation>每个单元格宽高相等；取消勾选则单元格铺满整张图。</translation>
    </message>
</context>
<context>
    <name>attnlab::FigureRenderer</name>
    <message>
        <source>masked</source>
        <translation>已掩码</translation>
    </message>
    <message>
        <source>fully masked</source>
        <translation>整行被掩码</translation>
    </message>
    <message>
        <source>%1: unknown image format (use .png, .svg or .pdf)</source>
        <translation>%1：未知的图片格式（请使用 .png、.svg 或 .pdf）</translation>
    </message>
    <message>
        <source>%1: could not write the figure (%2)</source>
        <translation>%1：无法写入图（%2）</translation>
    </message>
    <message>
        <source>encoding failed</source>
        <translation>编码失败</translation>
    </message>
</context>
<context>
    <name>attnlab::FileActions</name>
    <message>
        <source>Open session</source>
        <translation>打开会话</translation>
    </message>
    <message>
        <source>AttnLab sessions (*.attnlab.json);;JSON files (*.json);;All files (*)</source>
        <translation>AttnLab 会话 (*.attnlab.json);;JSON 文件 (*.json);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Save session as</source>
        <translation>会话另存为</translation>
    </message>
    <message>
        <source>AttnLab sessions (*.attnlab.json)</source>
        <translation>AttnLab 会话 (*.attnlab.json)</translation>
    </message>
    <message>
        <source>&amp;Open…</source>
        <translation>打开(&amp;O)…</translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation>保存(&amp;S)</translation>
    </message>
    <message>
        <source>Save &amp;As…</source>
        <translation>另存为(&amp;A)…</translation>
    </message>
    <message>
        <source>Cannot open the session</source>
        <translation>无法打开会话</translation>
    </message>
    <message>
        <source>untitled</source>
        <translation>未命名</translation>
    </message>
    <message>
        <source>Cannot save the session</source>
        <translation>无法保存会话</translation>
    </message>
    <message>
        <source>The untitled session</source>
        <translation>未命名的会话</translation>
    </message>
    <message>
        <source>Unsaved changes</source>
        <translation>未保存的更改</translation>
    </message>
    <message>
        <source>%1 has changes that are not saved. Save them?</source>
        <translation>%1有尚未保存的更改。要保存吗？</translation>
    </message>
    <message>
        <source>an untitled session</source>
        <translation>未命名的会话</translation>
    </message>
    <message>
        <source>Restore unsaved work?</source>
        <translation>恢复未保存的工作？</translation>
    </message>
    <message>
        <source>AttnLab did not close normally. Unsaved changes to %1 were saved automatically at %2.

Restore them? Discard deletes them; Cancel keeps them for the next start.</source>
        <translation>AttnLab 上次没有正常关闭。%1的未保存更改已自动保存（%2）。

要恢复吗？“放弃”会删除它们；“取消”会保留到下次启动。</translation>
    </message>
    <message>
        <source>Cannot restore the session</source>
        <translation>无法恢复会话</translation>
    </message>
    <message>
        <source>Restore unsaved work</source>
        <translation>恢复未保存的工作</translation>
    </message>
    <message>
        <source>&amp;%1 %2</source>
        <translation>&amp;%1 %2</translation>
    </message>
    <message>
        <source>No recent files</source>
        <translation>没有最近的文件</translation>
    </message>
    <message>
        <source>&amp;Clear the list</source>
        <translation>清空列表(&amp;C)</translation>
    </message>
    <message>
        <source>Open &amp;Model…</source>
        <translation>打开模型(&amp;M)…</translation>
    </message>
    <message>
        <source>Open a GPT-2 or BERT checkpoint folder and see its attention</source>
        <translation>打开一个 GPT-2 或 BERT 检查点文件夹，查看它的注意力</translation>
    </message>
    <message>
        <source>It could not be set aside either.</source>
        <translation>也无法把它移到一边。</translation>
    </message>
    <message>
        <source>It was kept as %1 and will not be offered again.</source>
        <translation>它已保存为 %1，以后不会再提示恢复。</translation>
    </message>
    <message>
        <source>Untitled</source>
        <translation>未命名</translation>
    </message>
    <message>
        <source>Long session</source>
        <translation>长序列会话</translation>
    </message>
    <message>
        <source>&amp;Train a Whole Model…</source>
        <translation>训练一个完整模型(&amp;T)…</translation>
    </message>
    <message>
        <source>Train a small GPT-2 in the model window and watch its induction heads form</source>
        <translation>在模型窗口中训练一个小型 GPT-2，看它的归纳头如何形成</translation>
    </message>
    <message>
        <source>Could not open the model</source>
        <translation>无法打开模型</translation>
    </message>
</context>
<context>
    <name>attnlab::GeneratePanel</name>
    <message>
        <source>&amp;Generate</source>
        <translation>生成(&amp;G)</translation>
    </message>
    <message>
        <source>Let the model write the chosen number of tokens (Ctrl+G)</source>
        <translation>让模型写出所选数量的词元（Ctrl+G）</translation>
    </message>
    <message>
        <source>&amp;Step</source>
        <translation>单步(&amp;S)</translation>
    </message>
    <message>
        <source>Let the model write one token (Ctrl+Shift+G)</source>
        <translation>让模型写出一个词元（Ctrl+Shift+G）</translation>
    </message>
    <message>
        <source>S&amp;top Writing</source>
        <translation>停止生成(&amp;T)</translation>
    </message>
    <message>
        <source>Stop the model writing (Esc); what it wrote stays</source>
        <translation>停止模型生成（Esc）；已写出的保留</translation>
    </message>
    <message>
        <source>Generate</source>
        <translation>生成</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>单步</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Temperature</source>
        <translation>温度</translation>
    </message>
    <message>
        <source>Top-k</source>
        <translation>Top-k</translation>
    </message>
    <message>
        <source>Top-p</source>
        <translation>Top-p</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>种子</translation>
    </message>
    <message>
        <source>Tokens</source>
        <translation>词元数</translation>
    </message>
    <message>
        <source>0 is greedy: always the most probable token. Higher flattens the softmax, lower sharpens it, as √d_k scaling does in a head</source>
        <translation>0 即贪心：总取最可能的词元。温度越高 softmax 越平，越低越尖，正如头里的 √d_k 缩放</translation>
    </message>
    <message>
        <source>all</source>
        <translation>全部</translation>
    </message>
    <message>
        <source>Keep only the k most probable tokens (0: all)</source>
        <translation>只保留最可能的 k 个词元（0：全部）</translation>
    </message>
    <message>
        <source>Keep the fewest most probable tokens whose probabilities reach p</source>
        <translation>保留概率之和达到 p 的最少几个最可能的词元</translation>
    </message>
    <message>
        <source>The same seed draws the same tokens</source>
        <translation>同一个种子抽出同样的词元</translation>
    </message>
    <message>
        <source>How many tokens Generate writes</source>
        <translation>“生成”写出多少个词元</translation>
    </message>
    <message>
        <source>token %v of %m</source>
        <translation>第 %v 个，共 %m 个词元</translation>
    </message>
    <message>
        <source>probability</source>
        <translation>概率</translation>
    </message>
    <message>
        <source>Open a model that writes (GPT-2 or the Llama family) and type a text: the bars show what it would write next.</source>
        <translation>打开一个能写作的模型（GPT-2 或 Llama 家族）并输入文本：柱子显示它接下来会写什么。</translation>
    </message>
    <message numerus="yes">
        <source>%n token(s) kept of the distribution (blue); grey: cut by top-k or top-p.</source>
        <translation>
            <numerusform>分布中保留了 %n 个词元（蓝色）；灰色：被 top-k 或 top-p 截去。</numerusform>
        </translation>
    </message>
    <message>
        <source>Greedy: wrote “%1”, the most probable (orange).</source>
        <translation>贪心：写出最可能的“%1”（橙色）。</translation>
    </message>
    <message>
        <source>Drew “%1” (orange): the uniform number %2 fell in its share.</source>
        <translation>抽出“%1”（橙色）：均匀随机数（%2）落在它的份额里。</translation>
    </message>
    <message>
        <source>The checkpoint&apos;s generation settings: %1. Its end-of-text ids and bad words are honoured; the rest is shown, not applied.</source>
        <translation>检查点的生成设置：%1。其中的结束符和禁用词会被遵守；其余只列出，不起作用。</translation>
    </message>
</context>
<context>
    <name>attnlab::GuideDialog</name>
    <message>
        <source>AttnLab user guide</source>
        <translation>AttnLab 使用指南</translation>
    </message>
    <message>
        <source>The guide is missing from this build.</source>
        <translation>此版本中没有找到使用指南。</translation>
    </message>
    <message>
        <source>&amp;User guide</source>
        <translation>使用指南(&amp;U)</translation>
    </message>
</context>
<context>
    <name>attnlab::HeadLines</name>
    <message>
        <source>The head view draws a line for each pair of tokens that attend; %1 tokens are too many to follow. The model view and the enlarged map show every head.</source>
        <translation>头视图为每一对相互注意的词元画一条线；%1 个词元的线太多，无法看清。模型视图和放大图会显示每一个头。</translation>
    </message>
</context>
<context>
    <name>attnlab::HeadLinesCanvas</name>
    <message>
        <source>Left: queries; right: keys. Point at a token to see only its lines.</source>
        <translation>左：查询；右：键。指向一个词，只看它的连线。</translation>
    </message>
    <message>
        <source>No run yet.</source>
        <translation>还没有运行。</translation>
    </message>
    <message>
        <source>Query %1 %2</source>
        <translation>查询 %1 %2</translation>
    </message>
    <message>
        <source>Key %1 %2</source>
        <translation>键 %1 %2</translation>
    </message>
</context>
<context>
    <name>attnlab::HeadLink</name>
    <message>
        <source>No model run to take a head from.</source>
        <translation>没有可以从中取出头的模型运行结果。</translation>
    </message>
    <message>
        <source>Open %1</source>
        <translation>打开%1</translation>
    </message>
    <message>
        <source>%1 holds a %2 model of %3 layers × %4 heads, not the %5 this session&apos;s head came from.</source>
        <translation>%1 中是 %3 层 × %4 个头的%2模型，不是这个会话的头所来自的%5。</translation>
    </message>
    <message>
        <source>model.safetensors in %1 is not the file this session&apos;s head came from: its SHA-256 is %2, the session names %3.</source>
        <translation>%1 中的 model.safetensors 不是这个会话的头所来自的文件：它的 SHA-256 是 %2，会话记录的是 %3。</translation>
    </message>
    <message>
        <source>unreadable</source>
        <translation>无法读取</translation>
    </message>
    <message>
        <source>The session&apos;s text has no tokens.</source>
        <translation>会话的文本里没有词元。</translation>
    </message>
    <message>
        <source>Cross-attention takes its keys from another sequence; the model&apos;s head reads its own text. Switch the mode back to carry the head into the model.</source>
        <translation>交叉注意力从另一个序列取键；模型的头读的是它自己的文本。把模式切换回来，才能把这个头带回模型。</translation>
    </message>
    <message numerus="yes">
        <source>The tokens are no longer the model&apos;s %n token(s); undo the change to carry the head into the model again.</source>
        <translation>
            <numerusform>词元已经不是模型的那 %n 个词元了；撤销这个改动，才能再把这个头带回模型。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>The workbench has no map of the model&apos;s %n token(s).</source>
        <translation>
            <numerusform>工作台没有模型那 %n 个词元的注意力图。</numerusform>
        </translation>
    </message>
    <message>
        <source>The head&apos;s values are %1 wide, the model&apos;s heads %2 (d_k or d_v changed); undo the change to carry the head into the model again.</source>
        <translation>这个头的值向量宽 %1，模型的头宽 %2（d_k 或 d_v 改变了）；撤销这个改动，才能再把这个头带回模型。</translation>
    </message>
    <message>
        <source>The model could not run with the workbench&apos;s head: %1</source>
        <translation>模型无法用工作台的头运行：%1</translation>
    </message>
    <message>
        <source>Another head is still being opened in the workbench.</source>
        <translation>另一个头仍在工作台中打开。</translation>
    </message>
</context>
<context>
    <name>attnlab::HeadScoreCurvePlot</name>
    <message>
        <source>Step</source>
        <translation>步数</translation>
    </message>
    <message>
        <source>Score</source>
        <translation>分数</translation>
    </message>
    <message>
        <source>Induction (solid), previous token (dashed)</source>
        <translation>归纳（实线），前一词元（虚线）</translation>
    </message>
    <message>
        <source>L%1 H%2</source>
        <translation>L%1 H%2</translation>
    </message>
</context>
<context>
    <name>attnlab::HeadScoresPanel</name>
    <message>
        <source>Colour the model view</source>
        <translation>给模型视图上色</translation>
    </message>
    <message>
        <source>Previous-token</source>
        <translation>前一词元</translation>
    </message>
    <message>
        <source>Duplicate-token</source>
        <translation>重复词元</translation>
    </message>
    <message>
        <source>Induction</source>
        <translation>归纳</translation>
    </message>
    <message>
        <source>First-token (sink)</source>
        <translation>首词元（注意力汇聚）</translation>
    </message>
    <message>
        <source>Measured on m random tokens followed by the same m tokens. Previous-token: the mean weight on the token just before; duplicate-token: on the earlier copy of the same token; induction: on the token after that copy (what copying needs); first-token: on token 1.</source>
        <translation>在 m 个随机词元后接同样 m 个词元的序列上测量。前一词元：落在紧挨着的前一个词元上的平均权重；重复词元：落在同一词元较早那一份上；归纳：落在那一份之后的词元上（复制要用的就是它）；首词元：落在第 1 个词元上。</translation>
    </message>
    <message>
        <source>Frame every head of the model view by this score</source>
        <translation>按这个分数给模型视图中的每个头加框</translation>
    </message>
    <message>
        <source>L%1</source>
        <translation>L%1</translation>
    </message>
    <message>
        <source>H%1</source>
        <translation>H%1</translation>
    </message>
    <message>
        <source>Layer %1, head %2: previous-token %3, duplicate-token %4, induction %5, first-token %6</source>
        <translation>第 %1 层第 %2 个头：前一词元 %3，重复词元 %4，归纳 %5，首词元 %6</translation>
    </message>
    <message>
        <source>Measuring the heads…</source>
        <translation>正在测量各个头…</translation>
    </message>
    <message>
        <source>Open a model to see what kind of head each head is.</source>
        <translation>打开一个模型，看看每个头属于哪一类。</translation>
    </message>
    <message>
        <source>Mean weights on %1 random tokens followed by the same %1, over 16 such sequences.</source>
        <translation>在 %1 个随机词元后接同样 %1 个词元的序列上的平均权重，共 16 条这样的序列。</translation>
    </message>
</context>
<context>
    <name>attnlab::HeadSession</name>
    <message>
        <source>Cannot open that head: %1</source>
        <translation>无法打开这个头：%1</translation>
    </message>
    <message>
        <source>Layer %1, head %2 of %3</source>
        <translation>%3 的第 %1 层第 %2 个头</translation>
    </message>
    <message>
        <source>Cross-attention, layer %1, head %2 of %3</source>
        <translation>%3 的交叉注意力，第 %1 层，头 %2</translation>
    </message>
</context>
<context>
    <name>attnlab::HeadViewPanel</name>
    <message>
        <source>&amp;Layer:</source>
        <translation>层(&amp;L)：</translation>
    </message>
    <message>
        <source>H&amp;ead:</source>
        <translation>头(&amp;E)：</translation>
    </message>
    <message>
        <source>The layer whose heads are drawn</source>
        <translation>要绘制哪一层的头</translation>
    </message>
    <message>
        <source>One head, or all of the layer&apos;s heads in their colours</source>
        <translation>一个头，或者这一层的所有头（各用一种颜色）</translation>
    </message>
    <message>
        <source>Layer %1</source>
        <translation>第 %1 层</translation>
    </message>
    <message>
        <source>All heads</source>
        <translation>所有头</translation>
    </message>
    <message>
        <source>Head %1</source>
        <translation>头 %1</translation>
    </message>
</context>
<context>
    <name>attnlab::HeadsGridPanel</name>
    <message>
        <source>Each head has its own softmax budget per query. Click a head to inspect it; the framed one is current.</source>
        <translation>每个头对每个查询都有自己的一份 softmax 预算。点击某个头查看它；带边框的是当前头。</translation>
    </message>
    <message>
        <source>Click to inspect head %1</source>
        <translation>点击查看头 %1</translation>
    </message>
    <message>
        <source>Head %1</source>
        <translation>头 %1</translation>
    </message>
</context>
<context>
    <name>attnlab::HeatmapView</name>
    <message>
        <source>fully masked</source>
        <translation>整行被掩码</translation>
    </message>
    <message>
        <source>every 2nd label</source>
        <translation>每隔 1 个标一个</translation>
    </message>
    <message>
        <source>every 3rd label</source>
        <translation>每隔 2 个标一个</translation>
    </message>
    <message>
        <source>every %1th label</source>
        <translation>每 %1 个标一个</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
</context>
<context>
    <name>attnlab::InductionLessonLauncher</name>
    <message>
        <source>Train one layer</source>
        <translation>训练一层模型</translation>
    </message>
    <message>
        <source>The model window with its trainer set to one attention-only layer</source>
        <translation>打开模型窗口，训练器设为一层纯注意力模型</translation>
    </message>
    <message>
        <source>Train two layers</source>
        <translation>训练两层模型</translation>
    </message>
    <message>
        <source>The model window with its trainer set to two attention-only layers</source>
        <translation>打开模型窗口，训练器设为两层纯注意力模型</translation>
    </message>
    <message>
        <source>Open the built-in model</source>
        <translation>打开内置模型</translation>
    </message>
    <message>
        <source>The two-layer model this recipe trains, shipped with AttnLab: no training needed</source>
        <translation>用这个配方训练出的两层模型，随 AttnLab 提供，无需训练</translation>
    </message>
</context>
<context>
    <name>attnlab::Language</name>
    <message>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;System default</source>
        <translation>跟随系统(&amp;S)</translation>
    </message>
</context>
<context>
    <name>attnlab::LessonActions</name>
    <message>
        <source>&amp;Lessons</source>
        <translation>课程(&amp;L)</translation>
    </message>
    <message>
        <source>Lesson</source>
        <translation>课程</translation>
    </message>
    <message>
        <source>Show working</source>
        <translation>计算过程</translation>
    </message>
    <message>
        <source>&amp;Start page…</source>
        <translation>开始页(&amp;S)…</translation>
    </message>
    <message>
        <source>Lesson &amp;text</source>
        <translation>课程正文(&amp;T)</translation>
    </message>
    <message>
        <source>Show &amp;working</source>
        <translation>显示计算过程(&amp;W)</translation>
    </message>
    <message>
        <source>Cost of n²</source>
        <translation>n² 的代价</translation>
    </message>
    <message>
        <source>&amp;Cost of n² (time and memory against n)</source>
        <translation>n² 的代价（时间和内存随 n 的变化）(&amp;C)</translation>
    </message>
    <message>
        <source>Open %1</source>
        <translation>打开%1</translation>
    </message>
</context>
<context>
    <name>attnlab::LessonPanel</name>
    <message>
        <source>&amp;Start the lesson again</source>
        <translation>重新开始本课(&amp;S)</translation>
    </message>
    <message>
        <source>Reload the lesson&apos;s numbers (one undo step).</source>
        <translation>重新载入本课的数值（可一步撤销）。</translation>
    </message>
    <message>
        <source>No lesson open</source>
        <translation>未打开课程</translation>
    </message>
    <message>
        <source>Open a lesson from the **Lessons** menu or the start page (**Help ▸ Start page**).</source>
        <translation>从 **课程** 菜单或开始页（**帮助 ▸ 开始页**）打开一门课程。</translation>
    </message>
</context>
<context>
    <name>attnlab::Lessons</name>
    <message>
        <source>no lesson named %1</source>
        <translation>没有名为“%1”的课程</translation>
    </message>
</context>
<context>
    <name>attnlab::LongDocument</name>
    <message>
        <source>Change the mode</source>
        <translation>更改模式</translation>
    </message>
    <message>
        <source>Change the scaling</source>
        <translation>更改缩放</translation>
    </message>
    <message>
        <source>Scale key %1 by %2</source>
        <translation>将键 %1 缩放 %2 倍</translation>
    </message>
    <message>
        <source>Cancelled: the map shows the session before the change.</source>
        <translation>已取消：图中显示的是更改之前的会话。</translation>
    </message>
    <message>
        <source>Cancelled: there is no map until it is computed again.</source>
        <translation>已取消：在重新计算之前没有图。</translation>
    </message>
</context>
<context>
    <name>attnlab::LongMapPanel</name>
    <message>
        <source>Previous row</source>
        <translation>上一行</translation>
    </message>
    <message>
        <source>Next row</source>
        <translation>下一行</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Stop the computation (Esc)</source>
        <translation>停止计算（Esc）</translation>
    </message>
    <message>
        <source>Computing the weights in the background…</source>
        <translation>正在后台计算权重…</translation>
    </message>
    <message>
        <source>Compute again</source>
        <translation>重新计算</translation>
    </message>
    <message>
        <source>Attention weights P, head %1 (%2 × %3, float)</source>
        <translation>注意力权重 P，头 %1（%2 × %3，float）</translation>
    </message>
    <message>
        <source>query (row)</source>
        <translation>查询（行）</translation>
    </message>
    <message>
        <source>key (column)</source>
        <translation>键（列）</translation>
    </message>
    <message>
        <source>Computing the weights…</source>
        <translation>正在计算权重…</translation>
    </message>
    <message>
        <source>Computing the weights… The map shown before made room for them: two maps of this size do not fit in the memory budget.</source>
        <translation>正在计算权重… 之前显示的图已为其腾出内存：这么大的两张图无法同时放入内存预算。</translation>
    </message>
    <message>
        <source>There is no map: the computation was cancelled or refused.</source>
        <translation>没有图：计算已被取消或被拒绝。</translation>
    </message>
    <message>
        <source>Query %1 “%2” → key %3 “%4”: weight %5 · score %6 · scaled %7</source>
        <translation>查询 %1“%2” → 键 %3“%4”：权重 %5 · 分数 %6 · 缩放后 %7</translation>
    </message>
    <message>
        <source>masked</source>
        <translation>已掩码</translation>
    </message>
</context>
<context>
    <name>attnlab::LongPanel</name>
    <message>
        <source>What is kept</source>
        <translation>保留了什么</translation>
    </message>
    <message>
        <source>Attention</source>
        <translation>注意力</translation>
    </message>
    <message>
        <source>Head:</source>
        <translation>头：</translation>
    </message>
    <message>
        <source>Mode:</source>
        <translation>模式：</translation>
    </message>
    <message>
        <source>Divide the scores by √d_k</source>
        <translation>分数除以 √d_k</translation>
    </message>
    <message>
        <source>Without it, long rows of large scores saturate the softmax</source>
        <translation>不除的话，长行中的大分数会使 softmax 饱和</translation>
    </message>
    <message>
        <source>Scale one key</source>
        <translation>缩放一个键</translation>
    </message>
    <message>
        <source>Key:</source>
        <translation>键：</translation>
    </message>
    <message>
        <source>Scale by:</source>
        <translation>缩放倍数：</translation>
    </message>
    <message>
        <source>Apply</source>
        <translation>应用</translation>
    </message>
    <message>
        <source>Recompute every row with this key scaled (Ctrl+Return)</source>
        <translation>按缩放后的键重新计算每一行（Ctrl+Return）</translation>
    </message>
    <message>
        <source>Selected row</source>
        <translation>选中的行</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>键</translation>
    </message>
    <message>
        <source>P</source>
        <translation>P</translation>
    </message>
    <message>
        <source>q·k</source>
        <translation>q·k</translation>
    </message>
    <message>
        <source>Scaled</source>
        <translation>缩放后</translation>
    </message>
    <message>
        <source>The keys this row weighs most: P is the weight, q·k the score, Scaled the score after the scaling; the scores are recomputed from Q and K</source>
        <translation>这一行权重最大的键：P 是权重，q·k 是分数，“缩放后”是缩放之后的分数；分数由 Q 和 K 重新算出</translation>
    </message>
    <message numerus="yes">
        <source>%1 queries × %2 keys, d_k = %3, %n head(s), in float. Of the n × m stages only the weights P are kept (%4 MiB); the scores of a row are recomputed from Q and K when you point at it or select it. Held: %5 MiB of the %6 MiB budget; every stage in double would need %7 MiB.</source>
        <translation>
            <numerusform>%1 个查询 × %2 个键，d_k = %3，%n 个头，float。n × m 的各阶段中只保留权重 P（%4 MiB）；指向或选中某一行时，它的分数由 Q 和 K 重新算出。占用：%6 MiB 预算中的 %5 MiB；若以 double 保留每个阶段，需要 %7 MiB。</numerusform>
        </translation>
    </message>
    <message>
        <source>Two maps do not fit at once: while a change is computed, its map takes the memory of the one shown.</source>
        <translation>两张图无法同时放入内存：计算更改时，新图会占用当前所显示图的内存。</translation>
    </message>
    <message>
        <source>Cross-attention</source>
        <translation>交叉注意力</translation>
    </message>
    <message>
        <source>Self-attention</source>
        <translation>自注意力</translation>
    </message>
    <message>
        <source>Causal (masked)</source>
        <translation>因果（掩码）</translation>
    </message>
    <message>
        <source>“%1”, now scaled by %2</source>
        <translation>“%1”，当前缩放 %2 倍</translation>
    </message>
    <message>
        <source>Computing…</source>
        <translation>正在计算…</translation>
    </message>
    <message>
        <source>No map is computed.</source>
        <translation>尚未计算出图。</translation>
    </message>
    <message>
        <source>Row %1 “%2” is fully masked: it attends to nothing.</source>
        <translation>第 %1 行“%2”被完全掩码：它不关注任何位置。</translation>
    </message>
    <message>
        <source>Row %1 “%2”: entropy %3 nats; its largest weight %4 is on key %5 “%6”.</source>
        <translation>第 %1 行“%2”：熵 %3 nats；最大权重 %4 落在键 %5“%6”上。</translation>
    </message>
</context>
<context>
    <name>attnlab::LossPlot</name>
    <message>
        <source>Step</source>
        <translation>步数</translation>
    </message>
    <message>
        <source>Loss</source>
        <translation>损失</translation>
    </message>
</context>
<context>
    <name>attnlab::MainWindow</name>
    <message>
        <source>&amp;Weights</source>
        <translation>权重(&amp;W)</translation>
    </message>
    <message>
        <source>&amp;Difference</source>
        <translation>差值(&amp;D)</translation>
    </message>
    <message>
        <source>&amp;Pipeline</source>
        <translation>流水线(&amp;P)</translation>
    </message>
    <message>
        <source>All &amp;heads</source>
        <translation>所有头(&amp;H)</translation>
    </message>
    <message>
        <source>Wal&amp;kthrough</source>
        <translation>分步演示(&amp;K)</translation>
    </message>
    <message>
        <source>Controls</source>
        <translation>控制</translation>
    </message>
    <message>
        <source>Sequences</source>
        <translation>序列</translation>
    </message>
    <message>
        <source>Row inspector</source>
        <translation>行检查器</translation>
    </message>
    <message>
        <source>Keys</source>
        <translation>键</translation>
    </message>
    <message>
        <source>Queries</source>
        <translation>查询</translation>
    </message>
    <message>
        <source>Values</source>
        <translation>值</translation>
    </message>
    <message>
        <source>Matrices</source>
        <translation>矩阵</translation>
    </message>
    <message>
        <source>%1[*] — AttnLab</source>
        <translation>%1[*] — AttnLab</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Trainer</source>
        <translation>训练</translation>
    </message>
    <message>
        <source>The long session stays open: its changes were not saved.</source>
        <translation>长序列会话仍然打开：它的更改尚未保存。</translation>
    </message>
    <message>
        <source>Reading %1…</source>
        <translation>正在读取 %1…</translation>
    </message>
    <message>
        <source>&amp;Long map</source>
        <translation>长序列图(&amp;L)</translation>
    </message>
    <message>
        <source>A long session keeps only its attention weights: this view cannot show it. The Long map tab shows its map and its controls.</source>
        <translation>长序列会话只保留注意力权重：此视图无法显示它。“长序列图”标签页显示它的图和控件。</translation>
    </message>
    <message>
        <source>Not available for a long session: only its attention weights are kept. The Long map tab shows them.</source>
        <translation>长序列会话不可用：只保留了注意力权重。“长序列图”标签页显示它们。</translation>
    </message>
    <message>
        <source>The workbench cannot open that head.</source>
        <translation>工作台无法打开该头。</translation>
    </message>
</context>
<context>
    <name>attnlab::MatricesPanel</name>
    <message>
        <source>Matrix:</source>
        <translation>矩阵：</translation>
    </message>
    <message>
        <source>Which matrix of the session to show and edit</source>
        <translation>要显示和编辑会话中的哪个矩阵</translation>
    </message>
    <message>
        <source>Seed:</source>
        <translation>种子：</translation>
    </message>
    <message>
        <source>The seed the random projections are drawn from</source>
        <translation>随机投影矩阵所用的种子</translation>
    </message>
    <message>
        <source>Randomise</source>
        <translation>随机生成</translation>
    </message>
    <message>
        <source>Draw new W_Q, W_K, W_V (every head), W_O and additive parameters from the seed shown; vector edits are removed. One undo step.</source>
        <translation>用所示种子重新抽取 W_Q、W_K、W_V（每个头）、W_O 和加性注意力参数；向量编辑会被移除。可一步撤销。</translation>
    </message>
    <message>
        <source>Reset</source>
        <translation>重置</translation>
    </message>
    <message>
        <source>Redraw the projections from the session&apos;s own seed, discarding hand edits of the projections. One undo step.</source>
        <translation>用会话自己的种子重新抽取投影矩阵，放弃对投影矩阵的手动编辑。可一步撤销。</translation>
    </message>
    <message>
        <source>Double-click a cell to type a new value</source>
        <translation>双击单元格输入新值</translation>
    </message>
    <message>
        <source>Target embeddings, one row per token.</source>
        <translation>目标序列的词向量，每个词一行。</translation>
    </message>
    <message>
        <source>Source embeddings (cross mode): keys and values.</source>
        <translation>源序列的词向量（交叉注意力模式）：提供键和值。</translation>
    </message>
    <message>
        <source>Query projection: Q = X W_Q.</source>
        <translation>查询投影矩阵：Q = X W_Q。</translation>
    </message>
    <message>
        <source>Key projection: K = X W_K (Y W_K in cross mode).</source>
        <translation>键投影矩阵：K = X W_K（交叉注意力模式下为 Y W_K）。</translation>
    </message>
    <message>
        <source>Value projection: V = X W_V (Y W_V in cross mode).</source>
        <translation>值投影矩阵：V = X W_V（交叉注意力模式下为 Y W_V）。</translation>
    </message>
    <message>
        <source>Output projection of the concatenated heads.</source>
        <translation>拼接各头之后的输出投影矩阵。</translation>
    </message>
    <message>
        <source>Additive score: W_a in vᵀ tanh(W_a q + U_a k).</source>
        <translation>加性打分：vᵀ tanh(W_a q + U_a k) 中的 W_a。</translation>
    </message>
    <message>
        <source>Additive score: U_a in vᵀ tanh(W_a q + U_a k).</source>
        <translation>加性打分：vᵀ tanh(W_a q + U_a k) 中的 U_a。</translation>
    </message>
    <message>
        <source>Additive score: v in vᵀ tanh(W_a q + U_a k).</source>
        <translation>加性打分：vᵀ tanh(W_a q + U_a k) 中的 v。</translation>
    </message>
    <message>
        <source>%1: %2 × %3. %4</source>
        <translation>%1：%2 × %3。%4</translation>
    </message>
    <message>
        <source>Shared projections are on: W_Q is used instead.</source>
        <translation>已开启共用投影矩阵：改用 W_Q。</translation>
    </message>
</context>
<context>
    <name>attnlab::ModelChangePanel</name>
    <message>
        <source>For each layer (row) and head (column): the largest change of one attention weight that the head edits caused</source>
        <translation>每一层（行）、每个头（列）：对头的编辑造成的单个注意力权重的最大变化</translation>
    </message>
    <message>
        <source>L%1</source>
        <translation>L%1</translation>
    </message>
    <message>
        <source>H%1</source>
        <translation>H%1</translation>
    </message>
    <message>
        <source>Layer %1, head %2: %3</source>
        <translation>第 %1 层，头 %2：%3</translation>
    </message>
    <message>
        <source>colour from 0 to %1, the largest change; the value on hover</source>
        <translation>颜色从 0 到最大变化 %1，悬停显示数值</translation>
    </message>
    <message>
        <source>no weight changed</source>
        <translation>没有权重发生变化</translation>
    </message>
    <message>
        <source>Layer 1 comes before the edit and does not change.</source>
        <translation>第 1 层在编辑之前，不会变化。</translation>
    </message>
    <message>
        <source>Layers 1–%1 come before the edit and do not change.</source>
        <translation>第 1–%1 层在编辑之前，不会变化。</translation>
    </message>
    <message>
        <source>Largest change of a weight, per layer and head, since the workbench took this head (%1):</source>
        <translation>自工作台取出这个头以来，每层每个头中单个权重的最大变化（%1）：</translation>
    </message>
    <message numerus="yes">
        <source>Largest change of a weight, per layer and head (%n head edit(s); %1):</source>
        <translation>
            <numerusform>每一层、每个头中权重的最大变化（%n 处对头的编辑；%1）：</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 %2</source>
        <comment>the layers before the edit, then the grid&apos;s title</comment>
        <translation>%1%2</translation>
    </message>
</context>
<context>
    <name>attnlab::ModelDocument</name>
    <message>
        <source>%1 is not a folder. A model is a folder holding config.json, model.safetensors and the tokenizer&apos;s files.</source>
        <translation>%1 不是文件夹。一个模型是一个文件夹，里面有 config.json、model.safetensors 和分词器文件。</translation>
    </message>
    <message>
        <source>No model open</source>
        <translation>没有打开模型</translation>
    </message>
    <message>
        <source>%1 · %2 layers × %3 heads · width %4</source>
        <translation>%1 · %2 层 × %3 个头 · 宽度 %4</translation>
    </message>
    <message>
        <source>Run cancelled; the maps show the last completed text.</source>
        <translation>已取消运行；图中显示的是上一次完成的文本。</translation>
    </message>
    <message>
        <source>Type a text to see the model&apos;s attention.</source>
        <translation>输入一段文字，查看模型的注意力。</translation>
    </message>
    <message>
        <source>The edit was refused: %1</source>
        <translation>编辑被拒绝：%1</translation>
    </message>
    <message>
        <source>Replace layer %1, head %2 by its mean</source>
        <translation>把第 %1 层的头 %2 换成它的平均</translation>
    </message>
    <message>
        <source>Switch off layer %1, head %2</source>
        <translation>关闭第 %1 层的头 %2</translation>
    </message>
    <message>
        <source>Restore layer %1, head %2</source>
        <translation>恢复第 %1 层的头 %2</translation>
    </message>
    <message>
        <source>key</source>
        <translation>键</translation>
    </message>
    <message>
        <source>query</source>
        <translation>查询</translation>
    </message>
    <message>
        <source>value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>Scale %1 %2 of layer %3, head %4 by %5</source>
        <translation>把第 %3 层头 %4 的%1 %2 乘以 %5</translation>
    </message>
    <message>
        <source>Clear the head edits</source>
        <translation>清除对头的编辑</translation>
    </message>
    <message>
        <source>Layer %1, head %2: “%3” gives “%4” the weight %5, the most of any head. Right-click “%4” in the map to double or halve its key.</source>
        <translation>第 %1 层，头 %2：“%3”给“%4”的权重是 %5，在所有头中最大。在图中右键点击“%4”，可以把它的键放大两倍或减半。</translation>
    </message>
    <message>
        <source>Run the model on a text first.</source>
        <translation>请先在一段文本上运行模型。</translation>
    </message>
    <message>
        <source>%1 · %2 layers × %3 heads (%4 key/value heads) · width %5</source>
        <translation>%1 · %2 层 × %3 个头（%4 个键值头）· 宽度 %5</translation>
    </message>
    <message>
        <source>Rollout multiplies every layer&apos;s whole map; from %1 tokens on the model view keeps each map at screen resolution, and rollout is not computed.</source>
        <translation>注意力展开要把每一层的完整注意力图相乘；从 %1 个词元起，模型视图只按屏幕分辨率保存每张图，不计算注意力展开。</translation>
    </message>
    <message>
        <source>Layer %1, head %2 puts %3 % of its attention on the first token (attention sink %4 of %5).</source>
        <translation>第 %1 层第 %2 个头把 %3% 的注意力放在第一个词元上（注意力汇聚点，第 %4 个，共 %5 个）。</translation>
    </message>
    <message>
        <source>No head puts half of its attention on the first token; layer %1, head %2 comes closest with %3 %.</source>
        <translation>没有哪个头把一半的注意力放在第一个词元上；最接近的是第 %1 层第 %2 个头，占 %3%。</translation>
    </message>
    <message>
        <source>There is no workbench window to open the head in.</source>
        <translation>没有可以打开这个头的工作台窗口。</translation>
    </message>
    <message>
        <source>The sampling was refused: %1</source>
        <translation>采样设置被拒绝：%1</translation>
    </message>
    <message>
        <source>The model wrote its end-of-text token: it has finished.</source>
        <translation>模型写出了结束符：它已写完。</translation>
    </message>
    <message>
        <source>The text fills the model&apos;s %1 positions.</source>
        <translation>文本已占满模型的 %1 个位置。</translation>
    </message>
    <message>
        <source>Write a token</source>
        <translation>写一个词元</translation>
    </message>
    <message numerus="yes">
        <source>Generate %n token(s)</source>
        <translation>
            <numerusform>生成 %n 个词元</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>attnlab::ModelFigures</name>
    <message>
        <source>query</source>
        <translation>查询</translation>
    </message>
    <message>
        <source>key</source>
        <translation>键</translation>
    </message>
    <message>
        <source>Attention weights of a real model (rows: queries, columns: keys).</source>
        <translation>真实模型的注意力权重（行：查询，列：键）。</translation>
    </message>
    <message>
        <source>%1: attention of every layer and head</source>
        <translation>%1：每一层、每个头的注意力</translation>
    </message>
    <message>
        <source>Text: “%1”. Rows: layers; columns: heads, then the mean of the layer&apos;s heads and the attention rollout through the layer (Abnar &amp; Zuidema 2020). Colour: weight from 0 to 1.</source>
        <translation>文本：“%1”。行：层；列：各个头，然后是该层所有头的平均（mean）和到该层为止的注意力 rollout（Abnar 与 Zuidema 2020）。颜色：权重，从 0 到 1。</translation>
    </message>
    <message>
        <source>Head view: layer %1, head %2</source>
        <translation>头视图：第 %1 层，头 %2</translation>
    </message>
    <message numerus="yes">
        <source>Head view: layer %1, %n head(s)</source>
        <translation>
            <numerusform>头视图：第 %1 层，%n 个头</numerusform>
        </translation>
    </message>
    <message>
        <source>Left: queries; right: keys. A line&apos;s width is the weight (lines under %1 left out); one colour per head.</source>
        <translation>左：查询；右：键。线的宽度就是权重（权重 &lt; %1 的线省略）；每个头一种颜色。</translation>
    </message>
    <message>
        <source>H%1</source>
        <translation>H%1</translation>
    </message>
    <message>
        <source>query (target)</source>
        <translation>查询（目标）</translation>
    </message>
    <message>
        <source>key (source)</source>
        <translation>键（源）</translation>
    </message>
</context>
<context>
    <name>attnlab::ModelFocusPanel</name>
    <message>
        <source>Key</source>
        <translation>键</translation>
    </message>
    <message>
        <source>Weight</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>query</source>
        <translation>查询</translation>
    </message>
    <message>
        <source>key</source>
        <translation>键</translation>
    </message>
    <message>
        <source>Click a row of the map to see which keys its query reads most.</source>
        <translation>点击图中的一行，看它的查询最关注哪些键。</translation>
    </message>
    <message>
        <source>Query %1 “%2” reads most from:</source>
        <translation>查询 %1“%2”最关注：</translation>
    </message>
    <message>
        <source>%1 “%2”</source>
        <translation>%1“%2”</translation>
    </message>
    <message>
        <source>Double Key %1 “%2”</source>
        <translation>键 %1“%2”放大两倍</translation>
    </message>
    <message>
        <source>Halve Key %1 “%2”</source>
        <translation>键 %1“%2”减半</translation>
    </message>
    <message>
        <source>Double Value %1 “%2”</source>
        <translation>值 %1“%2”放大两倍</translation>
    </message>
    <message>
        <source>Double Query %1 “%2”</source>
        <translation>查询 %1“%2”放大两倍</translation>
    </message>
    <message>
        <source>Restore This Head</source>
        <translation>恢复这个头</translation>
    </message>
    <message>
        <source>Open in &amp;Workbench</source>
        <translation>在工作台中打开(&amp;W)</translation>
    </message>
    <message>
        <source>query %1 %2 → key %3 %4: %5</source>
        <translation>查询 %1 %2 → 键 %3 %4：%5</translation>
    </message>
    <message>
        <source>Key and value edits act on heads %1–%2 (they share this key/value head)</source>
        <translation>键和值的编辑作用于头 %1–%2（它们共用这个键值头）</translation>
    </message>
    <message>
        <source>Rows: queries; columns: keys. Click a row to list its strongest keys. Scroll to zoom.</source>
        <translation>行：查询；列：键。点击一行，列出它最强的键。滚动鼠标滚轮缩放。</translation>
    </message>
    <message>
        <source> (score q·k/√d_h %1)</source>
        <translation>（分数 q·k/√d_h 为 %1）</translation>
    </message>
    <message>
        <source>query (▸ written by the model)</source>
        <translation>查询（▸ 为模型所写）</translation>
    </message>
    <message>
        <source>key (▸ written by the model)</source>
        <translation>键（▸ 为模型所写）</translation>
    </message>
</context>
<context>
    <name>attnlab::ModelGrid</name>
    <message>
        <source>H%1</source>
        <translation>H%1</translation>
    </message>
    <message>
        <source>mean</source>
        <translation>平均</translation>
    </message>
    <message>
        <source>rollout</source>
        <translation>rollout</translation>
    </message>
    <message>
        <source>L%1</source>
        <translation>L%1</translation>
    </message>
    <message>
        <source>KV %1</source>
        <translation>KV %1</translation>
    </message>
</context>
<context>
    <name>attnlab::ModelGridView</name>
    <message>
        <source>Model view: every layer&apos;s and head&apos;s attention</source>
        <translation>模型视图：每一层、每个头的注意力</translation>
    </message>
    <message>
        <source>Type a text above to see every layer&apos;s and head&apos;s attention.</source>
        <translation>在上方输入文字，查看每一层、每个头的注意力。</translation>
    </message>
    <message>
        <source>Open a model folder (File ▸ Open model…) or drop it here.</source>
        <translation>打开一个模型文件夹（文件 ▸ 打开模型…），或把它拖到这里。</translation>
    </message>
    <message>
        <source>Click to enlarge</source>
        <translation>点击放大</translation>
    </message>
    <message>
        <source>Switch Off This Head (output 0)</source>
        <translation>关闭这个头（输出为 0）</translation>
    </message>
    <message>
        <source>Replace by Its Mean over Positions</source>
        <translation>换成它在各位置上的平均</translation>
    </message>
    <message>
        <source>Restore This Head</source>
        <translation>恢复这个头</translation>
    </message>
    <message>
        <source>Open in &amp;Workbench</source>
        <translation>在工作台中打开(&amp;W)</translation>
    </message>
    <message>
        <source>Its real queries, keys and values in the workbench: drag a key and watch the model&apos;s prediction</source>
        <translation>把它真实的查询、键和值放进工作台：拖动一个键，看模型的预测怎么变</translation>
    </message>
    <message>
        <source>%1 % of its attention on the first token</source>
        <translation>%1% 的注意力在第一个词元上</translation>
    </message>
    <message>
        <source>Drawn at screen resolution: each pixel the strongest weight of its block of cells</source>
        <translation>按屏幕分辨率绘制：每个像素显示它所覆盖的格子中最大的权重</translation>
    </message>
</context>
<context>
    <name>attnlab::ModelLessonLauncher</name>
    <message>
        <source>Open a model folder…</source>
        <translation>打开模型文件夹…</translation>
    </message>
    <message>
        <source>A folder with config.json, model.safetensors and the tokenizer&apos;s files, downloaded from huggingface.co</source>
        <translation>一个包含 config.json、model.safetensors 和分词器文件的文件夹，从 huggingface.co 下载</translation>
    </message>
    <message>
        <source>The sentence the model reads first (you can edit it there)</source>
        <translation>模型先读的句子（之后可以在模型窗口里修改）</translation>
    </message>
    <message>
        <source>Open %1 again</source>
        <translation>再次打开 %1</translation>
    </message>
    <message>
        <source>Open again</source>
        <translation>再次打开</translation>
    </message>
    <message>
        <source>Open the selected head in the workbench</source>
        <translation>在工作台中打开选中的头</translation>
    </message>
    <message>
        <source>Its real queries, keys and values in the workbench, where every slider is carried through the model</source>
        <translation>把它真实的查询、键和值放进工作台，那里每个滑块的改动都会带过模型</translation>
    </message>
    <message>
        <source>Built into AttnLab, no download needed:</source>
        <translation>AttnLab 内置，无需下载：</translation>
    </message>
    <message>
        <source>Open the letters model (induction heads)</source>
        <translation>打开字母模型（归纳头）</translation>
    </message>
    <message>
        <source>Open the Tang poem model</source>
        <translation>打开唐诗模型</translation>
    </message>
    <message>
        <source>Opens the built-in model on: %1</source>
        <translation>用这段文本打开内置模型：%1</translation>
    </message>
    <message>
        <source>Double that key</source>
        <translation>把那个键放大两倍</translation>
    </message>
    <message>
        <source>In the selected head, doubles the key its selected row reads most</source>
        <translation>在选中的头里，把选中那一行最关注的键放大两倍</translation>
    </message>
    <message>
        <source>Halve that key</source>
        <translation>把那个键减半</translation>
    </message>
    <message>
        <source>In the selected head, halves the key its selected row reads most</source>
        <translation>在选中的头里，把选中那一行最关注的键减半</translation>
    </message>
    <message>
        <source>Next step, a downloaded model: sentence, then folder (last: %1):</source>
        <translation>下一步，下载的模型：先选句子，再选文件夹（上次：%1）：</translation>
    </message>
    <message>
        <source>Next step, a downloaded model: sentence, then folder:</source>
        <translation>下一步，下载的模型：先选句子，再选文件夹：</translation>
    </message>
    <message>
        <source>Open the dates translator (cross-attention)</source>
        <translation>打开日期翻译模型（交叉注意力）</translation>
    </message>
</context>
<context>
    <name>attnlab::ModelLinkPanel</name>
    <message>
        <source>&amp;Attach model</source>
        <translation>连接模型(&amp;A)</translation>
    </message>
    <message>
        <source>Detach</source>
        <translation>断开</translation>
    </message>
    <message>
        <source>Open the model this head came from (the session names its folder and the SHA-256 of its weights) and carry your edits through it</source>
        <translation>打开这个头所来自的模型（会话记录了它的文件夹和权重的 SHA-256），并把你的改动带过它</translation>
    </message>
    <message>
        <source>Stop carrying the workbench&apos;s changes into the model</source>
        <translation>不再把工作台的改动带回模型</translation>
    </message>
    <message>
        <source>No real model</source>
        <translation>没有真实模型</translation>
    </message>
    <message>
        <source>This session&apos;s head is not from a trained model. Open one with File ▸ Open Model…, then right-click a head in its model view and choose Open in Workbench: its real vectors come here, and every change you make is carried through the rest of the model.</source>
        <translation>这个会话的头不是来自训练过的模型。用“文件 ▸ 打开模型…”打开一个模型，在它的模型视图里右键点击一个头，选“在工作台中打开”：它真实的向量会来到这里，你的每个改动都会带过模型的其余部分。</translation>
    </message>
    <message>
        <source>%1 — “%2”</source>
        <translation>%1 —— “%2”</translation>
    </message>
    <message>
        <source>Attaching the model (reading its weights and checking their SHA-256)…</source>
        <translation>正在连接模型（读取权重并核对 SHA-256）…</translation>
    </message>
    <message>
        <source>The model is not attached. Attach it (from %1) to see what your changes do to its prediction.</source>
        <translation>模型尚未连接。连接它（来自 %1），就能看到你的改动对它的预测有什么影响。</translation>
    </message>
    <message>
        <source>Every change here is carried into this head inside the model, and the layers after it run again. One head rarely flips a prediction: the other heads and the residual stream carry on.</source>
        <translation>这里的每个改动都会带进模型中的这个头，其后的各层重新运行。单个头很少能翻转预测：其他头和残差流照常传递信息。</translation>
    </message>
</context>
<context>
    <name>attnlab::ModelPresenter</name>
    <message>
        <source>P&amp;resenter view</source>
        <translation>演示视图(&amp;R)</translation>
    </message>
    <message>
        <source>The figure last clicked full screen with large text, with a pen, a highlighter, rings and a pointer. Esc leaves.</source>
        <translation>以大字号全屏显示最后点过的图，可用笔、荧光笔、圈和指示点标注。按 Esc 退出。</translation>
    </message>
    <message>
        <source>Present</source>
        <translation>演示</translation>
    </message>
    <message>
        <source>The &amp;enlarged head</source>
        <translation>放大的头(&amp;E)</translation>
    </message>
    <message>
        <source>The &amp;model view</source>
        <translation>模型视图(&amp;M)</translation>
    </message>
    <message>
        <source>The &amp;head view</source>
        <translation>头视图(&amp;H)</translation>
    </message>
</context>
<context>
    <name>attnlab::ModelRecovery</name>
    <message>
        <source>the field &quot;%1&quot; is missing</source>
        <translation>缺少字段“%1”</translation>
    </message>
    <message>
        <source>the field &quot;%1&quot; is not a string</source>
        <translation>字段“%1”不是字符串</translation>
    </message>
    <message>
        <source>&quot;%1&quot; must be a whole number from %2 to %3</source>
        <translation>“%1”必须是 %2 到 %3 之间的整数</translation>
    </message>
    <message>
        <source>it is larger than %1 MiB</source>
        <translation>它超过了 %1 MiB</translation>
    </message>
    <message>
        <source>it is not a JSON object</source>
        <translation>它不是一个 JSON 对象</translation>
    </message>
    <message>
        <source>&quot;edits&quot; is not a list</source>
        <translation>“edits”不是列表</translation>
    </message>
    <message>
        <source>%1 cannot be read: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <source>%1 was refused: %2.</source>
        <translation>%1 被拒绝：%2。</translation>
    </message>
    <message>
        <source>The model folder %1 cannot be opened any more: %2</source>
        <translation>模型文件夹%1已无法打开：%2</translation>
    </message>
    <message>
        <source>%1 is layer %2 head %3, but the model in %4 has %5 layers of %6 heads.</source>
        <translation>%1是第 %2 层的头 %3，但%4中的模型只有 %5 层，每层 %6 个头。</translation>
    </message>
    <message>
        <source>An edited head</source>
        <translation>被编辑的头</translation>
    </message>
    <message>
        <source>The open head</source>
        <translation>打开的头</translation>
    </message>
    <message>
        <source>a model</source>
        <translation>一个模型</translation>
    </message>
    <message>
        <source>Restore the model window?</source>
        <translation>恢复模型窗口？</translation>
    </message>
    <message>
        <source>AttnLab did not close normally. The model window on %1 (its text, head edits and open head) was saved automatically at %2.

Restore it? Discard deletes it; Cancel keeps it for the next start.</source>
        <translation>AttnLab 上次没有正常关闭。%1 上的模型窗口（它的文本、对头的编辑和打开的头）已于%2自动保存。

要恢复吗？“丢弃”会删除它；“取消”会把它留到下次启动。</translation>
    </message>
    <message>
        <source>It could not be set aside either.</source>
        <translation>也无法把它移到一边。</translation>
    </message>
    <message>
        <source>It was kept as %1 and will not be offered again.</source>
        <translation>它已保存为 %1，以后不会再提示恢复。</translation>
    </message>
    <message>
        <source>Cannot restore the model window</source>
        <translation>无法恢复模型窗口</translation>
    </message>
    <message>
        <source>model window&apos;s</source>
        <translation>模型窗口的</translation>
    </message>
    <message>
        <source>it is not a %1 recovery file</source>
        <translation>它不是%1恢复文件</translation>
    </message>
    <message>
        <source>encoder</source>
        <translation>编码器</translation>
    </message>
    <message>
        <source>decoder</source>
        <translation>解码器</translation>
    </message>
    <message>
        <source>cross-attention</source>
        <translation>交叉注意力</translation>
    </message>
    <message>
        <source>translator window&apos;s</source>
        <translation>翻译器窗口的</translation>
    </message>
    <message>
        <source>%1 is %2 layer %3 head %4, but the model in %5 has %6 %2 layers of %7 heads.</source>
        <translation>%1是%2第 %3 层的头 %4，但%5中的模型只有 %6 个%2层，每层 %7 个头。</translation>
    </message>
    <message>
        <source>Restore the translator window?</source>
        <translation>恢复翻译器窗口？</translation>
    </message>
    <message>
        <source>AttnLab did not close normally. The translator window on %1 (its source, target, head edits and open head) was saved automatically at %2.

Restore it? Discard deletes it; Cancel keeps it for the next start.</source>
        <translation>AttnLab 上次没有正常关闭。%1 上的翻译器窗口（源文本、目标文本、头的编辑和打开的头）已于%2自动保存。

要恢复吗？“丢弃”会删除它；“取消”则留到下次启动。</translation>
    </message>
    <message>
        <source>an encoder-decoder</source>
        <translation>一个编码器-解码器</translation>
    </message>
    <message>
        <source>Cannot restore the translator window</source>
        <translation>无法恢复翻译器窗口</translation>
    </message>
    <message>
        <source>&quot;%1&quot; has an unknown value</source>
        <translation>“%1”的值无法识别</translation>
    </message>
    <message>
        <source>&quot;scale&quot; must be a finite number</source>
        <translation>“scale”必须是有限的数</translation>
    </message>
</context>
<context>
    <name>attnlab::ModelSnapshot</name>
    <message>
        <source>Layer %1, head %2</source>
        <translation>第 %1 层，头 %2</translation>
    </message>
    <message>
        <source>Layer %1: mean of its %2 heads</source>
        <translation>第 %1 层：%2 个头的平均</translation>
    </message>
    <message>
        <source>Attention rollout through layer %1 (Abnar &amp; Zuidema 2020)</source>
        <translation>到第 %1 层为止的注意力 rollout（Abnar 与 Zuidema 2020）</translation>
    </message>
    <message>
        <source>The text has %1 tokens; this model reads at most %2. Shorten it.</source>
        <translation>这段文字有 %1 个词元；这个模型最多读 %2 个。请缩短它。</translation>
    </message>
    <message>
        <source>The model could not run: %1</source>
        <translation>模型无法运行：%1</translation>
    </message>
    <message>
        <source>“%1”</source>
        <translation>“%1”</translation>
    </message>
    <message>
        <source>%1 (bytes %2)</source>
        <translation>%1（字节 %2）</translation>
    </message>
    <message>
        <source>not in this model&apos;s vocabulary, left out: %1</source>
        <translation>不在这个模型的词表中，已略去：%1</translation>
    </message>
    <message>
        <source>read as the unknown token: %1</source>
        <translation>读作未知词元：%1</translation>
    </message>
    <message numerus="yes">
        <source>and %n more</source>
        <translation>
            <numerusform>还有 %n 处</numerusform>
        </translation>
    </message>
    <message>
        <source>Some of the text has no token of its own: %1.</source>
        <translation>文本中有一部分没有自己的词元：%1。</translation>
    </message>
</context>
<context>
    <name>attnlab::ModelTrainGrid</name>
    <message>
        <source>H%1</source>
        <translation>H%1</translation>
    </message>
    <message>
        <source>L%1</source>
        <translation>L%1</translation>
    </message>
    <message>
        <source>ind %1</source>
        <translation>归纳 %1</translation>
    </message>
    <message>
        <source>prev %1</source>
        <translation>前一 %1</translation>
    </message>
    <message>
        <source>Every head on m random tokens followed by the same m. A previous-token head lights the diagonal just below the main one; an induction head a stripe m - 1 below it (each letter of the repeat reads the letter after its earlier copy). Framed: the best induction head.</source>
        <translation>每个头都在 m 个随机词元、再接同样 m 个词元的序列上。前一词元头点亮紧挨主对角线下方的斜线；归纳头点亮主对角线下方 m - 1 格处的斜纹（重复段里的每个字母都读它上一次出现时后面的字母）。加框的是最强的归纳头。</translation>
    </message>
    <message>
        <source>Every head&apos;s attention appears here when training starts.</source>
        <translation>开始训练后，每个头的注意力会显示在这里。</translation>
    </message>
    <message>
        <source>No step of the film strip has been kept yet: train past one of its steps, or press Keep This Step.</source>
        <translation>胶片条还没有保存任何一步：先训练过其中某一步，或者按“保存这一步”。</translation>
    </message>
    <message>
        <source>Each row is one head on %1 random tokens followed by the same %1; each column a step of training. Weights on [0, 1].</source>
        <translation>每行是一个头，输入为 %1 个随机词元再接同样的 %1 个；每列是训练的一个步数。权重范围 [0, 1]。</translation>
    </message>
    <message>
        <source>step %1</source>
        <translation>第 %1 步</translation>
    </message>
    <message>
        <source>L%1 H%2</source>
        <translation>L%1 H%2</translation>
    </message>
</context>
<context>
    <name>attnlab::ModelTrainerPanel</name>
    <message>
        <source>Save the trained model in a folder</source>
        <translation>把训练好的模型保存到文件夹</translation>
    </message>
    <message>
        <source>Export the film strip</source>
        <translation>导出胶片条</translation>
    </message>
    <message>
        <source>PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)</source>
        <translation>PNG 图像 (*.png);;SVG 矢量图 (*.svg);;PDF 文档 (*.pdf)</translation>
    </message>
    <message>
        <source>Train on a text file (UTF-8)</source>
        <translation>在文本文件上训练（UTF-8）</translation>
    </message>
    <message>
        <source>Text (*.txt);;All files (*)</source>
        <translation>文本 (*.txt);;所有文件 (*)</translation>
    </message>
    <message>
        <source>&amp;Task:</source>
        <translation>任务(&amp;T)：</translation>
    </message>
    <message>
        <source>Induction</source>
        <translation>归纳</translation>
    </message>
    <message>
        <source>Text file…</source>
        <translation>文本文件…</translation>
    </message>
    <message>
        <source>File…</source>
        <translation>文件…</translation>
    </message>
    <message>
        <source>Train on a UTF-8 text file</source>
        <translation>在 UTF-8 文本文件上训练</translation>
    </message>
    <message>
        <source>&amp;Layers:</source>
        <translation>层数(&amp;L)：</translation>
    </message>
    <message>
        <source>One layer cannot form an induction head: it needs a previous-token head in an earlier layer</source>
        <translation>一层模型形成不了归纳头：它需要前面一层里有一个前一词元头</translation>
    </message>
    <message>
        <source>&amp;Heads:</source>
        <translation>头数(&amp;H)：</translation>
    </message>
    <message>
        <source>&amp;Width:</source>
        <translation>宽度(&amp;W)：</translation>
    </message>
    <message>
        <source>d_model, the width of the residual stream (a multiple of the heads)</source>
        <translation>d_model，残差流的宽度（须为头数的倍数）</translation>
    </message>
    <message>
        <source>&amp;Context:</source>
        <translation>上下文(&amp;C)：</translation>
    </message>
    <message>
        <source>Tokens per training sequence</source>
        <translation>每条训练序列的词元数</translation>
    </message>
    <message>
        <source>S&amp;teps:</source>
        <translation>步数(&amp;T)：</translation>
    </message>
    <message>
        <source>S&amp;eed:</source>
        <translation>种子(&amp;E)：</translation>
    </message>
    <message>
        <source>The same settings and seed train the same model, bit for bit</source>
        <translation>同样的设置和种子训练出逐位相同的模型</translation>
    </message>
    <message>
        <source>&amp;Attention only (no MLP)</source>
        <translation>纯注意力（无 MLP）(&amp;A)</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>单步</translation>
    </message>
    <message>
        <source>Train one step and pause</source>
        <translation>训练一步后暂停</translation>
    </message>
    <message>
        <source>Reset</source>
        <translation>重置</translation>
    </message>
    <message>
        <source>Back to step 0 with the settings above (they unlock)</source>
        <translation>用上面的设置回到第 0 步（设置解锁）</translation>
    </message>
    <message>
        <source>Full speed</source>
        <translation>全速</translation>
    </message>
    <message numerus="yes">
        <source>At most %n step(s) a second</source>
        <translation>
            <numerusform>每秒最多 %n 步</numerusform>
        </translation>
    </message>
    <message>
        <source>Open in Model Window</source>
        <translation>在模型窗口中打开</translation>
    </message>
    <message>
        <source>Writes the model as a GPT-2 folder and opens it in the model window: switch its heads off there and watch the predictions</source>
        <translation>把模型写成 GPT-2 文件夹并在模型窗口中打开：在那里关掉它的头，观察预测</translation>
    </message>
    <message>
        <source>Save Model…</source>
        <translation>保存模型…</translation>
    </message>
    <message>
        <source>Write the model as a Hugging Face GPT-2 folder with its training.json</source>
        <translation>把模型写成带 training.json 的 Hugging Face GPT-2 文件夹</translation>
    </message>
    <message>
        <source>&amp;Film strip:</source>
        <translation>胶片条(&amp;F)：</translation>
    </message>
    <message>
        <source>The steps whose grid is kept for the film strip</source>
        <translation>为胶片条保存网格的那些步数</translation>
    </message>
    <message>
        <source>Keep This Step</source>
        <translation>保存这一步</translation>
    </message>
    <message>
        <source>Add the grid of the current step to the film strip</source>
        <translation>把当前这一步的网格加入胶片条</translation>
    </message>
    <message>
        <source>Export Film Strip…</source>
        <translation>导出胶片条…</translation>
    </message>
    <message>
        <source>Could not read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <source>The film strip&apos;s steps are whole numbers from 0, separated by commas</source>
        <translation>胶片条的步数是从 0 起的整数，用逗号分隔</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <source>Continue</source>
        <translation>继续</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>开始</translation>
    </message>
    <message>
        <source>Pause after the step in progress</source>
        <translation>当前这一步完成后暂停</translation>
    </message>
    <message>
        <source>Train to the last step</source>
        <translation>一直训练到最后一步</translation>
    </message>
    <message>
        <source>Step %1 of %2</source>
        <translation>第 %1 步，共 %2 步</translation>
    </message>
    <message>
        <source> · loss %1</source>
        <translation> · 损失 %1</translation>
    </message>
    <message>
        <source> · copy accuracy %1</source>
        <translation> · 复制准确率 %1</translation>
    </message>
    <message>
        <source>Phase change at step %1: loss %2 → %3, best induction score %4 → %5 (layer %6 head %7)</source>
        <translation>第 %1 步发生相变：损失 %2 → %3，最强归纳分数 %4 → %5（第 %6 层头 %7）</translation>
    </message>
    <message>
        <source>Pause the training first: the model is saved as it stands between steps.</source>
        <translation>请先暂停训练：模型按两步之间的状态保存。</translation>
    </message>
    <message>
        <source>There is no model to open: the settings above were refused.</source>
        <translation>没有可以打开的模型：上面的设置被拒绝了。</translation>
    </message>
    <message>
        <source>There is no model window to open it in.</source>
        <translation>没有可以打开它的模型窗口。</translation>
    </message>
    <message>
        <source>There is no run to export.</source>
        <translation>没有可以导出的训练。</translation>
    </message>
    <message numerus="yes">
        <source>%n layer(s), %1 heads: every head as training goes on</source>
        <translation>
            <numerusform>%n 层、%1 个头：训练过程中的每个头</numerusform>
        </translation>
    </message>
    <message>
        <source>Trained model, step %1 of %2 (the model trainer)</source>
        <translation>训练好的模型，第 %1 步（共 %2 步）（模型训练器）</translation>
    </message>
    <message>
        <source>Dates → English (translator)</source>
        <translation>日期 → 英文（翻译模型）</translation>
    </message>
    <message>
        <source>Induction: random letters in which a stretch repeats; only a head that finds the earlier copy by content can predict it. A text file: any UTF-8 text, one token per distinct character. Dates → English: an encoder-decoder learns to write 2026年12月4日 as December 4, 2026, and its cross-attention learns to align the fields.</source>
        <translation>归纳：随机字母中有一段重复；只有按内容找到前一次出现的头才能预测它。文本文件：任意 UTF-8 文本，每个不同的字符一个词元。日期 → 英文：编码器-解码器学习把“2026年12月4日”写成 December 4, 2026，它的交叉注意力学会把各字段对齐。</translation>
    </message>
</context>
<context>
    <name>attnlab::ModelWindow</name>
    <message>
        <source>Open a model folder (config.json, model.safetensors, tokenizer)</source>
        <translation>打开模型文件夹（config.json、model.safetensors、分词器）</translation>
    </message>
    <message>
        <source>Export figure</source>
        <translation>导出图</translation>
    </message>
    <message>
        <source>PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)</source>
        <translation>PNG 图片 (*.png);;SVG 矢量图 (*.svg);;PDF 文档 (*.pdf)</translation>
    </message>
    <message numerus="yes">
        <source>%n token(s), %1 ms</source>
        <translation>
            <numerusform>%n 个词元，%1 毫秒</numerusform>
        </translation>
    </message>
    <message>
        <source>&amp;Text:</source>
        <translation>文本(&amp;T)：</translation>
    </message>
    <message>
        <source>Type a sentence; the model re-runs as you type</source>
        <translation>输入一个句子；模型会随着输入重新运行</translation>
    </message>
    <message>
        <source>Examples…</source>
        <translation>例句…</translation>
    </message>
    <message>
        <source>The textbook&apos;s sentences (BERT fills in [MASK])</source>
        <translation>课本里的句子（BERT 会填出 [MASK]）</translation>
    </message>
    <message>
        <source>layer %v of %m</source>
        <translation>第 %v 层，共 %m</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Stop this run (Esc); the maps keep the last completed text</source>
        <translation>停止这次运行（Esc）；图中保留上一次完成的文本</translation>
    </message>
    <message>
        <source>Head view</source>
        <translation>头视图</translation>
    </message>
    <message>
        <source>Predictions</source>
        <translation>预测</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Open Model…</source>
        <translation>打开模型(&amp;O)…</translation>
    </message>
    <message>
        <source>A folder with config.json, model.safetensors and the tokenizer&apos;s files</source>
        <translation>一个包含 config.json、model.safetensors 和分词器文件的文件夹</translation>
    </message>
    <message>
        <source>&amp;Export</source>
        <translation>导出(&amp;E)</translation>
    </message>
    <message>
        <source>Model &amp;View (all layers and heads)…</source>
        <translation>模型视图（所有层和头）(&amp;V)…</translation>
    </message>
    <message>
        <source>&amp;Enlarged Map…</source>
        <translation>放大的图(&amp;E)…</translation>
    </message>
    <message>
        <source>&amp;Head View…</source>
        <translation>头视图(&amp;H)…</translation>
    </message>
    <message>
        <source>&amp;Close</source>
        <translation>关闭(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;Which Models Open?</source>
        <translation>能打开哪些模型？(&amp;W)</translation>
    </message>
    <message>
        <source>Which models open?</source>
        <translation>能打开哪些模型？</translation>
    </message>
    <message>
        <source>GPT-2 (gpt2, distilgpt2, gpt2-medium, …) and BERT (bert-base-uncased, bert-base-chinese, …) checkpoints in the Hugging Face layout: a folder with config.json, model.safetensors (F32, F16 or BF16) and the tokenizer&apos;s files (GPT-2: vocab.json and merges.txt, or tokenizer.json; BERT: vocab.txt). Download them once from huggingface.co; AttnLab runs them on this computer without Python or a network.</source>
        <translation>Hugging Face 格式的 GPT-2（gpt2、distilgpt2、gpt2-medium 等）和 BERT（bert-base-uncased、bert-base-chinese 等）检查点：一个文件夹，包含 config.json、model.safetensors（F32、F16 或 BF16）和分词器文件（GPT-2：vocab.json 和 merges.txt，或 tokenizer.json；BERT：vocab.txt）。从 huggingface.co 下载一次即可；AttnLab 在本机运行它们，不需要 Python，也不需要联网。</translation>
    </message>
    <message>
        <source>Could not open the model: %1</source>
        <translation>无法打开模型：%1</translation>
    </message>
    <message>
        <source>Could not open the model</source>
        <translation>无法打开模型</translation>
    </message>
    <message>
        <source>There is nothing to export yet: open a model and type a text.</source>
        <translation>还没有可导出的内容：请打开一个模型并输入文字。</translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>导出失败</translation>
    </message>
    <message>
        <source>Wrote %1</source>
        <translation>已写入 %1</translation>
    </message>
    <message>
        <source>AttnLab — %1 (%2)</source>
        <translation>AttnLab — %1（%2）</translation>
    </message>
    <message>
        <source>AttnLab — real model</source>
        <translation>AttnLab — 真实模型</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>撤销(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>重做(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Clear Head Edits</source>
        <translation>清除对头的编辑(&amp;C)</translation>
    </message>
    <message>
        <source>How to Edit a Head</source>
        <translation>如何编辑一个头</translation>
    </message>
    <message>
        <source>How to edit a head</source>
        <translation>如何编辑一个头</translation>
    </message>
    <message>
        <source>Right-click a head in the model view to switch it off or replace it by its mean; right-click a cell of an enlarged head to double or halve that key, value or query. The model re-runs from that layer on: the predictions show before and after, and the grid below them how much each later head&apos;s attention changed. Every edit is one undo step.</source>
        <translation>在模型视图中右键点击一个头，可以关闭它或把它换成平均；在放大的头上右键点击一个格子，可以把那个键、值或查询放大两倍或减半。模型从那一层起重新运行：预测显示编辑前后的对比，下面的网格显示之后每个头的注意力变化了多少。每次编辑都是一个撤销步骤。</translation>
    </message>
    <message>
        <source>Head kinds</source>
        <translation>头的类型</translation>
    </message>
    <message>
        <source>Open &amp;Built-in Model</source>
        <translation>打开内置模型(&amp;B)</translation>
    </message>
    <message>
        <source>Models trained by AttnLab itself, shipped with it: they open offline</source>
        <translation>由 AttnLab 自己训练、随程序附带的模型：不联网也能打开</translation>
    </message>
    <message>
        <source>Model trainer</source>
        <translation>模型训练器</translation>
    </message>
    <message>
        <source>&amp;Train</source>
        <translation>训练(&amp;T)</translation>
    </message>
    <message>
        <source>Model &amp;Trainer</source>
        <translation>模型训练器(&amp;T)</translation>
    </message>
    <message>
        <source>Train a small GPT-2 here and watch its heads form</source>
        <translation>在这里训练一个小型 GPT-2，看它的头如何形成</translation>
    </message>
    <message>
        <source>&amp;Start or Pause</source>
        <translation>开始或暂停(&amp;S)</translation>
    </message>
    <message>
        <source>S&amp;tep</source>
        <translation>单步(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Open the Trained Model Here</source>
        <translation>在这里打开训练好的模型(&amp;O)</translation>
    </message>
    <message>
        <source>Pause first: the model opens as it stands between steps</source>
        <translation>请先暂停：模型按两步之间的状态打开</translation>
    </message>
    <message>
        <source>Induction Heads: &amp;1 Layer</source>
        <translation>归纳头：一层(&amp;1)</translation>
    </message>
    <message>
        <source>Induction Heads: &amp;2 Layers</source>
        <translation>归纳头：两层(&amp;2)</translation>
    </message>
    <message>
        <source>Next Attention &amp;Sink</source>
        <translation>下一个注意力汇聚点(&amp;S)</translation>
    </message>
    <message>
        <source>Enlarge the next head whose queries put most of their attention on the first token (ringed in the model view)</source>
        <translation>放大下一个其查询把大部分注意力放在第一个词元上的头（在模型视图中带圆圈）</translation>
    </message>
    <message>
        <source>The enlarged map has nothing to draw: %1</source>
        <translation>放大图没有可画的内容：%1</translation>
    </message>
    <message>
        <source>Generate</source>
        <translation>生成</translation>
    </message>
    <message>
        <source>&amp;Generate</source>
        <translation>生成(&amp;G)</translation>
    </message>
    <message numerus="yes">
        <source>%n token(s), %1 written by the model; key/value cache and maps %2</source>
        <translation>
            <numerusform>%n 个词元，其中 %1 个为模型所写；键/值缓存和注意力图占 %2</numerusform>
        </translation>
    </message>
    <message>
        <source>&amp;Dates → English Translator</source>
        <translation>日期 → 英文翻译模型(&amp;D)</translation>
    </message>
    <message>
        <source>Train an encoder-decoder here and watch its cross-attention align</source>
        <translation>在这里训练一个编码器-解码器，看它的交叉注意力学会对齐</translation>
    </message>
</context>
<context>
    <name>attnlab::ModelWriting</name>
    <message>
        <source>The model could not write: %1</source>
        <translation>模型无法写作：%1</translation>
    </message>
</context>
<context>
    <name>attnlab::NumbersExport</name>
    <message>
        <source>query \ key</source>
        <translation>查询 \ 键</translation>
    </message>
    <message>
        <source>key \ component</source>
        <translation>键 \ 分量</translation>
    </message>
    <message>
        <source>query \ component</source>
        <translation>查询 \ 分量</translation>
    </message>
    <message>
        <source>query</source>
        <translation>查询</translation>
    </message>
    <message>
        <source>%1: could not write (%2)</source>
        <translation>%1：无法写入（%2）</translation>
    </message>
    <message>
        <source>This would write about %1 and needs about %2 of memory.</source>
        <translation>这将写出约 %1，并需要约 %2 内存。</translation>
    </message>
</context>
<context>
    <name>attnlab::PhaseMarkedPlot</name>
    <message>
        <source> phase change</source>
        <translation> 相变</translation>
    </message>
    <message>
        <source>alignment forms</source>
        <translation>对齐形成</translation>
    </message>
</context>
<context>
    <name>attnlab::PipelinePanel</name>
    <message>
        <source>The steps of one head, in order: project, score, scale, mask, softmax, mix. Hover a score to see its dot product term by term.</source>
        <translation>一个头的计算步骤依次为：投影、打分、缩放、掩码、softmax、加权求和。把鼠标停在某个分数上，可逐项查看它的点积。</translation>
    </message>
    <message>
        <source>S[“%1”, “%2”] = vᵀ tanh(W_a q_%3 + U_a k_%4) = %5</source>
        <translation>S[“%1”, “%2”] = vᵀ tanh(W_a q_%3 + U_a k_%4) = %5</translation>
    </message>
    <message>
        <source>Additive scoring: a small feed-forward network scores each pair; it is not a sum of products.</source>
        <translation>加性打分：由一个小型前馈网络为每一对打分，不是乘积之和。</translation>
    </message>
    <message>
        <source>S[“%1”, “%2”] = q_%3 · k_%4 = Σ_c q_%3[c] × k_%4[c]</source>
        <translation>S[“%1”, “%2”] = q_%3 · k_%4 = Σ_c q_%3[c] × k_%4[c]</translation>
    </message>
    <message>
        <source>  c = %1:  %2 × %3 = %4</source>
        <translation>  c = %1：  %2 × %3 = %4</translation>
    </message>
    <message>
        <source>  … %1 smaller terms: %2 in total</source>
        <translation>  … 另有 %1 个较小的项：合计 %2</translation>
    </message>
    <message>
        <source>Sum: %1</source>
        <translation>总和：%1</translation>
    </message>
    <message>
        <source>Scaled: %1 / √%2 = %3</source>
        <translation>缩放：%1 / √%2 = %3</translation>
    </message>
    <message>
        <source>Scaled: %1 / τ (τ = %2) = %3</source>
        <translation>缩放：%1 / τ（τ = %2）= %3</translation>
    </message>
    <message>
        <source>Not scaled: %1 goes to the softmax as is</source>
        <translation>未缩放：%1 原样送入 softmax</translation>
    </message>
    <message>
        <source>Masked: this score is replaced by −∞ before the softmax, so its weight is 0.</source>
        <translation>已掩码：这个分数在 softmax 之前被替换为 −∞，所以它的权重为 0。</translation>
    </message>
    <message>
        <source>%1
[“%2”, %3] = %4</source>
        <translation>%1
[“%2”, %3] = %4</translation>
    </message>
    <message>
        <source>q_%1 and k_%2 are turned by their positions (RoPE, θ = %3).</source>
        <translation>q_%1 和 k_%2 已按各自的位置旋转（RoPE，θ = %3）。</translation>
    </message>
</context>
<context>
    <name>attnlab::PredictionsPanel</name>
    <message>
        <source>Token</source>
        <translation>词元</translation>
    </message>
    <message>
        <source>Probability</source>
        <translation>概率</translation>
    </message>
    <message>
        <source>No run yet.</source>
        <translation>还没有运行。</translation>
    </message>
    <message>
        <source>No model open.</source>
        <translation>没有打开模型。</translation>
    </message>
    <message>
        <source>Put [MASK] in the text to see what BERT fills in (a checkpoint without its masked-LM head predicts nothing).</source>
        <translation>在文字中放一个 [MASK]，看 BERT 填什么（没有掩码语言模型头的检查点不做预测）。</translation>
    </message>
    <message>
        <source>This model gives no predictions.</source>
        <translation>这个模型不给出预测。</translation>
    </message>
    <message>
        <source>The 10 most probable tokens for each [MASK].</source>
        <translation>每个 [MASK] 最可能的 10 个词元。</translation>
    </message>
    <message>
        <source>The 10 most probable next tokens.</source>
        <translation>最可能的 10 个下一个词元。</translation>
    </message>
    <message>
        <source>[MASK] at position %1</source>
        <translation>位置 %1 的 [MASK]</translation>
    </message>
    <message>
        <source>After “%1” (position %2)</source>
        <translation>“%1”之后（位置 %2）</translation>
    </message>
    <message>
        <source>Token id %1</source>
        <translation>词元编号 %1</translation>
    </message>
    <message>
        <source>Before</source>
        <translation>之前</translation>
    </message>
    <message>
        <source>After</source>
        <translation>之后</translation>
    </message>
    <message>
        <source>Change</source>
        <translation>变化</translation>
    </message>
    <message>
        <source>With the head edits (after) beside the unedited model (before); change in percentage points.</source>
        <translation>编辑后（之后）与未编辑的模型（之前）并列；变化以百分点计。</translation>
    </message>
    <message>
        <source>With the workbench&apos;s head (after) beside the unedited model (before); change in percentage points.</source>
        <translation>工作台的头（之后）与未改动的模型（之前）并列；变化以百分点表示。</translation>
    </message>
    <message>
        <source>%1 pp</source>
        <translation>%1 个百分点</translation>
    </message>
    <message>
        <source>A token such as &lt;E5&gt;&lt;AE&gt;… holds only the first bytes of a character (in hex): the next token would complete it.</source>
        <translation>像 &lt;E5&gt;&lt;AE&gt;… 这样的词元只含一个字符的前几个字节（十六进制）：要由下一个词元补全。</translation>
    </message>
    <message>
        <source>Token id %1: the first bytes of a character, which a next token would complete</source>
        <translation>词元编号 %1：一个字符的前几个字节，要由下一个词元补全</translation>
    </message>
</context>
<context>
    <name>attnlab::PresenterActions</name>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>P&amp;resenter view</source>
        <translation>演示视图(&amp;R)</translation>
    </message>
    <message>
        <source>The current view full screen with large text, for the lecture hall, with a pen, a highlighter, rings and a pointer. Esc leaves.</source>
        <translation>以大字号全屏显示当前视图，适合教室投影，可用笔、荧光笔、圈和指示点标注。按 Esc 退出。</translation>
    </message>
</context>
<context>
    <name>attnlab::PresenterWindow</name>
    <message>
        <source>AttnLab — presenter view</source>
        <translation>AttnLab — 演示视图</translation>
    </message>
    <message>
        <source>No tool (N)</source>
        <translation>不标注（N）</translation>
    </message>
    <message>
        <source>Pen (P)</source>
        <translation>笔（P）</translation>
    </message>
    <message>
        <source>Highlighter (H)</source>
        <translation>荧光笔（H）</translation>
    </message>
    <message>
        <source>Ring a cell (R)</source>
        <translation>圈出单元格（R）</translation>
    </message>
    <message>
        <source>Pointer (L)</source>
        <translation>指示点（L）</translation>
    </message>
    <message>
        <source>The mouse works the view: hover, click, scroll</source>
        <translation>鼠标照常操作视图：悬停、点击、滚动</translation>
    </message>
    <message>
        <source>Draw by dragging</source>
        <translation>拖动鼠标书写</translation>
    </message>
    <message>
        <source>Highlight by dragging</source>
        <translation>拖动鼠标涂亮</translation>
    </message>
    <message>
        <source>Click a cell of a map to ring it</source>
        <translation>点击热图中的单元格把它圈出来</translation>
    </message>
    <message>
        <source>A red dot follows the mouse</source>
        <translation>一个红点跟随鼠标</translation>
    </message>
    <message>
        <source>Red (1)</source>
        <translation>红色（1）</translation>
    </message>
    <message>
        <source>Blue (2)</source>
        <translation>蓝色（2）</translation>
    </message>
    <message>
        <source>Green (3)</source>
        <translation>绿色（3）</translation>
    </message>
    <message>
        <source>Orange (4)</source>
        <translation>橙色（4）</translation>
    </message>
    <message>
        <source>Clear (C)</source>
        <translation>清除（C）</translation>
    </message>
    <message>
        <source>Clear the marks of this view or step</source>
        <translation>清除这个视图或这一步上的标记</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
    <message>
        <source>Save this view with its marks as PNG, SVG or PDF (Ctrl+E)</source>
        <translation>把这个视图连同标记保存为 PNG、SVG 或 PDF（Ctrl+E）</translation>
    </message>
    <message>
        <source>Close (Esc)</source>
        <translation>关闭（Esc）</translation>
    </message>
    <message>
        <source>Back to the window</source>
        <translation>回到窗口</translation>
    </message>
    <message>
        <source>Could not write %1.</source>
        <translation>无法写入 %1。</translation>
    </message>
    <message>
        <source>Export the view with its marks</source>
        <translation>导出带标记的视图</translation>
    </message>
    <message>
        <source>presented-view.png</source>
        <translation>演示视图.png</translation>
    </message>
    <message>
        <source>PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)</source>
        <translation>PNG 图片 (*.png);;SVG 矢量图 (*.svg);;PDF 文档 (*.pdf)</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>导出</translation>
    </message>
</context>
<context>
    <name>attnlab::QuitFlow</name>
    <message>
        <source>%1 (the workbench)</source>
        <translation>%1（工作台）</translation>
    </message>
    <message>
        <source>Quit AttnLab</source>
        <translation>退出 AttnLab</translation>
    </message>
    <message>
        <source>Not saved:%1

Save before quitting? Discard quits without saving.</source>
        <translation>尚未保存：%1

退出前要保存吗？选择“放弃”则不保存直接退出。</translation>
    </message>
</context>
<context>
    <name>attnlab::RopeLessonButtons</name>
    <message>
        <source>No positions</source>
        <translation>不加位置</translation>
    </message>
    <message>
        <source>Rotary positions off: the scores do not see where a token stands</source>
        <translation>关闭旋转位置编码：分数看不出词在哪个位置</translation>
    </message>
    <message>
        <source>RoPE, θ = %1</source>
        <translation>RoPE，θ = %1</translation>
    </message>
    <message>
        <source>θ = %1</source>
        <translation>θ = %1</translation>
    </message>
    <message>
        <source>Rotary positions on with the base θ = %1</source>
        <translation>打开旋转位置编码，基数 θ = %1</translation>
    </message>
</context>
<context>
    <name>attnlab::RowComparePlot</name>
    <message>
        <source>target</source>
        <translation>目标</translation>
    </message>
    <message>
        <source>P now</source>
        <translation>当前 P</translation>
    </message>
</context>
<context>
    <name>attnlab::RowInspectorPanel</name>
    <message>
        <source>weight</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>key</source>
        <translation>键</translation>
    </message>
    <message>
        <source>weights now</source>
        <translation>当前权重</translation>
    </message>
    <message>
        <source>pinned weights (before the edit)</source>
        <translation>固定的权重（编辑之前）</translation>
    </message>
    <message>
        <source>masked key</source>
        <translation>被掩码的键</translation>
    </message>
    <message>
        <source>Frobenius norm of the softmax Jacobian ∂w/∂s = diag(w) − w wᵀ for this row.
Near zero means the row is saturated (almost one-hot): changing the scores barely changes the weights, so little gradient flows back through it.
Scaling the scores by 1/√d_k keeps rows away from saturation.</source>
        <translation>本行 softmax 雅可比矩阵 ∂w/∂s = diag(w) − w wᵀ 的 Frobenius 范数。
接近零说明这一行已饱和（几乎是独热）：改变分数几乎不改变权重，能回传的梯度很少。
把分数乘以 1/√d_k 缩放可以让各行远离饱和。</translation>
    </message>
    <message>
        <source>−Σ w log w in nats: 0 when all weight is on one key, ln k when it is spread evenly over k keys.</source>
        <translation>−Σ w log w，单位为奈特：全部权重落在一个键上时为 0，均匀分布在 k 个键上时为 ln k。</translation>
    </message>
    <message>
        <source>Row inspector</source>
        <translation>行检查器</translation>
    </message>
    <message>
        <source>No result to inspect.</source>
        <translation>没有可查看的结果。</translation>
    </message>
    <message>
        <source>score / √d_k</source>
        <translation>分数 / √d_k</translation>
    </message>
    <message>
        <source>score / τ</source>
        <translation>分数 / τ</translation>
    </message>
    <message>
        <source>score (unscaled)</source>
        <translation>分数（未缩放）</translation>
    </message>
    <message>
        <source>Query “%1” (row %2 of %3), head %4</source>
        <translation>查询“%1”（第 %2 行，共 %3 行），头 %4</translation>
    </message>
    <message>
        <source>Entropy: —</source>
        <translation>熵：—</translation>
    </message>
    <message>
        <source>Max weight: —</source>
        <translation>最大权重：—</translation>
    </message>
    <message>
        <source>Softmax Jacobian norm: —</source>
        <translation>Softmax 雅可比范数：—</translation>
    </message>
    <message>
        <source>Every key is masked for this query: its weights are all zero (not NaN, not uniform) and its output is zero.</source>
        <translation>对这个查询，所有键都被掩码：它的权重全为零（不是 NaN，也不是均匀分布），输出也为零。</translation>
    </message>
    <message>
        <source>Entropy: %1 nats (even spread over %2 keys: %3)</source>
        <translation>熵：%1 奈特（均匀分布在 %2 个键上时为 %3）</translation>
    </message>
    <message>
        <source>Max weight: %1 on “%2”</source>
        <translation>最大权重：%1，在“%2”上</translation>
    </message>
    <message>
        <source>Softmax Jacobian norm: %1 (saturated: little gradient flows)</source>
        <translation>Softmax 雅可比范数：%1（已饱和：几乎没有梯度回传）</translation>
    </message>
    <message>
        <source>Softmax Jacobian norm: %1</source>
        <translation>Softmax 雅可比范数：%1</translation>
    </message>
    <message>
        <source>%1 of %2 keys are masked (hatched): their scores are set to −∞ before the softmax, so their weights are exactly 0.</source>
        <translation>%2 个键中有 %1 个被掩码（斜线填充）：它们的分数在 softmax 之前被设为 −∞，所以权重恰好为 0。</translation>
    </message>
    <message>
        <source>Dashed outlines: this row&apos;s weights when they were pinned. The weights always sum to 1, so what one key gains the others lose.</source>
        <translation>虚线框：这一行在固定时的权重。权重之和始终为 1，一个键得到多少，其他键就失去多少。</translation>
    </message>
    <message>
        <source>%1 keys: bars are labelled by position; hover a bar to see its token.</source>
        <translation>%1 个键：条形按位置标注；把鼠标停在条形上可查看对应的词。</translation>
    </message>
    <message>
        <source>Key “%1” (position %2)
scaled score: %3
weight: %4</source>
        <translation>键“%1”（位置 %2）
缩放后分数：%3
权重：%4</translation>
    </message>
    <message>
        <source>
pinned weight: %1 (change %2)</source>
        <translation>
固定的权重：%1（变化 %2）</translation>
    </message>
    <message>
        <source>
masked: this key is not attended</source>
        <translation>
已掩码：不关注这个键</translation>
    </message>
    <message>
        <source>↓ softmax:  w_j = exp(s_j) / Σ_k exp(s_k)</source>
        <translation>↓ softmax：  w_j = exp(s_j) / Σ_k exp(s_k)</translation>
    </message>
    <message>
        <source>(the weights sum to 1)</source>
        <translation>（权重之和为 1）</translation>
    </message>
</context>
<context>
    <name>attnlab::ScalingPlot</name>
    <message>
        <source>d_k (log scale)</source>
        <translation>d_k（对数坐标）</translation>
    </message>
    <message>
        <source>Variance of q·k</source>
        <translation>q·k 的方差</translation>
    </message>
    <message>
        <source>Row entropy (nats)</source>
        <translation>行熵（奈特）</translation>
    </message>
    <message>
        <source>y = d_k</source>
        <translation>y = d_k</translation>
    </message>
    <message>
        <source>this session: d_k = %1
variance %2 → %3 scaled</source>
        <translation>当前会话：d_k = %1
方差 %2 → 缩放后 %3</translation>
    </message>
    <message>
        <source>this session: d_k = %1
measuring…</source>
        <translation>当前会话：d_k = %1
正在测量…</translation>
    </message>
    <message>
        <source>variance, no scaling</source>
        <translation>方差，不缩放</translation>
    </message>
    <message>
        <source>variance, ÷√d_k</source>
        <translation>方差，÷√d_k</translation>
    </message>
    <message>
        <source>entropy, no scaling</source>
        <translation>熵，不缩放</translation>
    </message>
    <message>
        <source>entropy, ÷√d_k</source>
        <translation>熵，÷√d_k</translation>
    </message>
</context>
<context>
    <name>attnlab::Seq2SeqDocument</name>
    <message>
        <source>encoder</source>
        <translation>编码器</translation>
    </message>
    <message>
        <source>decoder</source>
        <translation>解码器</translation>
    </message>
    <message>
        <source>cross-attention</source>
        <translation>交叉注意力</translation>
    </message>
    <message>
        <source>%1 is not a folder. A model is a folder holding config.json, its weights and its tokenizer&apos;s files.</source>
        <translation>%1 不是文件夹。模型是一个文件夹，里面有 config.json、它的权重和分词器的文件。</translation>
    </message>
    <message>
        <source>No model open</source>
        <translation>没有打开模型</translation>
    </message>
    <message>
        <source>%1 · %2 + %3 layers × %4 heads · width %5</source>
        <translation>%1 · %2 + %3 层 × %4 个头 · 宽度 %5</translation>
    </message>
    <message>
        <source>The model could not run: %1</source>
        <translation>模型无法运行：%1</translation>
    </message>
    <message>
        <source>The edit was refused: %1</source>
        <translation>编辑被拒绝：%1</translation>
    </message>
    <message>
        <source>Switch off %1 layer %2, head %3</source>
        <translation>关闭%1第 %2 层第 %3 个头</translation>
    </message>
    <message>
        <source>Restore %1 layer %2, head %3</source>
        <translation>恢复%1第 %2 层第 %3 个头</translation>
    </message>
    <message>
        <source>key</source>
        <translation>键</translation>
    </message>
    <message>
        <source>query</source>
        <translation>查询</translation>
    </message>
    <message>
        <source>value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>Scale %1 %2 of %3 layer %4, head %5 by %6</source>
        <translation>把%3第 %4 层第 %5 个头的%1 %2 乘以 %6</translation>
    </message>
    <message>
        <source>Clear the head edits</source>
        <translation>清除对头的编辑</translation>
    </message>
    <message>
        <source>Encoder</source>
        <translation>编码器</translation>
    </message>
    <message>
        <source>Decoder</source>
        <translation>解码器</translation>
    </message>
    <message>
        <source>Cross-attention</source>
        <translation>交叉注意力</translation>
    </message>
    <message>
        <source>%1, layer %2, head %3</source>
        <translation>%1，第 %2 层，第 %3 个头</translation>
    </message>
    <message>
        <source>Encoder self-attention: queries, keys and values all come from the source; every source token sees every other.</source>
        <translation>编码器自注意力：查询、键和值都来自源序列；每个源词元都能看到其他所有源词元。</translation>
    </message>
    <message>
        <source>Decoder masked self-attention: queries, keys and values come from the target; future positions are set to −∞ before the softmax (the triangle).</source>
        <translation>解码器掩码自注意力：查询、键和值来自目标序列；softmax 之前把未来位置设为 −∞（图中的三角形）。</translation>
    </message>
    <message>
        <source>Cross-attention: the queries come from the decoder (target rows), the keys and values from the encoder&apos;s output (source columns).</source>
        <translation>交叉注意力：查询来自解码器（目标，行），键和值来自编码器的输出（源，列）。</translation>
    </message>
    <message>
        <source>T5 adds a learned bias per distance instead of positions, and does not divide by √d.</source>
        <translation>T5 不用位置向量，而是按距离加一个学到的偏置，并且不除以 √d。</translation>
    </message>
    <message>
        <source>T5 does not divide its scores by √d.</source>
        <translation>T5 的分数不除以 √d。</translation>
    </message>
    <message>
        <source>Translate a text first.</source>
        <translation>请先翻译一段文本。</translation>
    </message>
    <message>
        <source>There is no workbench window to open the head in.</source>
        <translation>没有可以打开该头的工作台窗口。</translation>
    </message>
</context>
<context>
    <name>attnlab::Seq2SeqGridView</name>
    <message>
        <source>Encoder: source × source</source>
        <translation>编码器：源 × 源</translation>
    </message>
    <message>
        <source>Decoder: target × target (masked)</source>
        <translation>解码器：目标 × 目标（掩码）</translation>
    </message>
    <message>
        <source>Cross: target rows × source columns</source>
        <translation>交叉：目标为行 × 源为列</translation>
    </message>
    <message>
        <source>L%1</source>
        <translation>层%1</translation>
    </message>
    <message>
        <source>Switch Off This Head</source>
        <translation>关闭这个头</translation>
    </message>
    <message>
        <source>Restore This Head</source>
        <translation>恢复这个头</translation>
    </message>
    <message>
        <source>Switch Off the Key of</source>
        <translation>关闭键：</translation>
    </message>
    <message>
        <source>Double the Key of</source>
        <translation>把键加倍：</translation>
    </message>
    <message>
        <source>Layer %1, head %2</source>
        <translation>第 %1 层，第 %2 个头</translation>
    </message>
    <message>
        <source>Click to enlarge; right-click to edit</source>
        <translation>单击放大；右键编辑</translation>
    </message>
    <message>
        <source>The edits moved a weight of this head by up to %1</source>
        <translation>这些编辑让这个头的权重最多变化了 %1</translation>
    </message>
    <message>
        <source>The edits leave this head&apos;s weights as they were</source>
        <translation>这些编辑没有改变这个头的权重</translation>
    </message>
    <message>
        <source>Open in Workbench</source>
        <translation>在工作台中打开</translation>
    </message>
    <message>
        <source>Study this head in the workbench in cross mode: the target&apos;s tokens are the queries, the source&apos;s the keys and values.</source>
        <translation>在工作台中以交叉模式研究这个头：目标文本的词元是查询，源文本的词元是键和值。</translation>
    </message>
</context>
<context>
    <name>attnlab::Seq2SeqHeadView</name>
    <message>
        <source>Lines from each query (right) to each key (left), as strong as the weight. Click a token on the right to see its lines alone; click it again for all.</source>
        <translation>从每个查询（右）到每个键（左）的连线，粗细和深浅随权重。单击右侧的词元只看它的连线；再次单击显示全部。</translation>
    </message>
    <message>
        <source>target (keys)</source>
        <translation>目标（键）</translation>
    </message>
    <message>
        <source>source (keys)</source>
        <translation>源（键）</translation>
    </message>
    <message>
        <source>source (queries)</source>
        <translation>源（查询）</translation>
    </message>
    <message>
        <source>target (queries)</source>
        <translation>目标（查询）</translation>
    </message>
</context>
<context>
    <name>attnlab::Seq2SeqWindow</name>
    <message>
        <source>Export map</source>
        <translation>导出注意力图</translation>
    </message>
    <message>
        <source>PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)</source>
        <translation>PNG 图像 (*.png);;SVG 矢量图 (*.svg);;PDF 文档 (*.pdf)</translation>
    </message>
    <message>
        <source>Open an encoder-decoder folder</source>
        <translation>打开编码器-解码器模型文件夹</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Open Model…</source>
        <translation>打开模型(&amp;O)…</translation>
    </message>
    <message>
        <source>&amp;Export Map…</source>
        <translation>导出注意力图(&amp;E)…</translation>
    </message>
    <message>
        <source>Ctrl+E</source>
        <translation>Ctrl+E</translation>
    </message>
    <message>
        <source>&amp;Close</source>
        <translation>关闭(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>撤销(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>重做(&amp;R)</translation>
    </message>
    <message>
        <source>Clear Head &amp;Edits</source>
        <translation>清除对头的编辑(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;Model</source>
        <translation>模型(&amp;M)</translation>
    </message>
    <message>
        <source>&amp;Translate</source>
        <translation>翻译(&amp;T)</translation>
    </message>
    <message>
        <source>Ctrl+T</source>
        <translation>Ctrl+T</translation>
    </message>
    <message>
        <source>Fill the target with the model&apos;s greedy translation</source>
        <translation>用模型的贪心翻译填入目标</translation>
    </message>
    <message>
        <source>Stop the Run</source>
        <translation>停止运行</translation>
    </message>
    <message>
        <source>Could not open the model: %1</source>
        <translation>无法打开模型：%1</translation>
    </message>
    <message>
        <source>There is nothing to export yet: open a model and type a source text.</source>
        <translation>还没有可导出的内容：请打开模型并输入源文本。</translation>
    </message>
    <message>
        <source>%1 source and %2 target tokens, %3 ms</source>
        <translation>源 %1 个词元，目标 %2 个词元，%3 毫秒</translation>
    </message>
    <message>
        <source>Open an encoder-decoder model (File ▸ Open Model…): BART, Marian (opus-mt) or T5.</source>
        <translation>请打开一个编码器-解码器模型（文件 ▸ 打开模型…）：BART、Marian（opus-mt）或 T5。</translation>
    </message>
    <message>
        <source>query (source)</source>
        <translation>查询（源）</translation>
    </message>
    <message>
        <source>query (target)</source>
        <translation>查询（目标）</translation>
    </message>
    <message>
        <source>key (target)</source>
        <translation>键（目标）</translation>
    </message>
    <message>
        <source>key (source)</source>
        <translation>键（源）</translation>
    </message>
    <message>
        <source>%1  %2 %</source>
        <translation>%1  %2 %</translation>
    </message>
    <message>
        <source>AttnLab translator — %1</source>
        <translation>AttnLab 翻译器 — %1</translation>
    </message>
    <message>
        <source>AttnLab translator</source>
        <translation>AttnLab 翻译器</translation>
    </message>
    <message>
        <source>Source:</source>
        <translation>源：</translation>
    </message>
    <message>
        <source>Target:</source>
        <translation>目标：</translation>
    </message>
    <message>
        <source>Type a sentence to translate</source>
        <translation>输入要翻译的句子</translation>
    </message>
    <message>
        <source>The model&apos;s translation, or type your own target</source>
        <translation>模型的翻译，或输入你自己的目标文本</translation>
    </message>
    <message>
        <source>Translate</source>
        <translation>翻译</translation>
    </message>
    <message>
        <source>Fill the target with the model&apos;s greedy translation (Ctrl+T)</source>
        <translation>用模型的贪心翻译填入目标（Ctrl+T）</translation>
    </message>
    <message>
        <source>Map</source>
        <translation>注意力图</translation>
    </message>
    <message>
        <source>Head view</source>
        <translation>头视图</translation>
    </message>
    <message>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <source>Reads</source>
        <translation>读入</translation>
    </message>
    <message>
        <source>1st guess</source>
        <translation>第 1 猜测</translation>
    </message>
    <message>
        <source>2nd guess</source>
        <translation>第 2 猜测</translation>
    </message>
    <message>
        <source>3rd guess</source>
        <translation>第 3 猜测</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>Shift+F5</source>
        <translation>Shift+F5</translation>
    </message>
    <message>
        <source>Cross layer %1, head %2 is the workbench&apos;s, with its edits: the change grid and the predictions show what it does to the rest of the model.</source>
        <translation>交叉注意力第 %1 层的头 %2 来自工作台（含其编辑）：变化网格和预测显示它对模型其余部分的影响。</translation>
    </message>
    <message>
        <source>&amp;Presenter View</source>
        <translation>演示视图(&amp;P)</translation>
    </message>
    <message>
        <source>The figure in front (the enlarged map or the head view) full screen with large text, with a pen, a highlighter and a pointer</source>
        <translation>把前面的图（放大的注意力图或头视图）全屏显示，文字放大，并可用笔、荧光笔和指示点</translation>
    </message>
    <message>
        <source>Present</source>
        <translation>演示</translation>
    </message>
    <message>
        <source>The &amp;Enlarged Map</source>
        <translation>放大的注意力图(&amp;E)</translation>
    </message>
    <message>
        <source>The &amp;Head View</source>
        <translation>头视图(&amp;H)</translation>
    </message>
    <message>
        <source>The Three &amp;Grids</source>
        <translation>三组网格(&amp;G)</translation>
    </message>
</context>
<context>
    <name>attnlab::SequencesPanel</name>
    <message>
        <source>Tokens separated by spaces. Press Enter to apply.</source>
        <translation>用空格分隔的词。按回车应用。</translation>
    </message>
    <message>
        <source>&amp;Target:</source>
        <translation>目标(&amp;T)：</translation>
    </message>
    <message>
        <source>The source sequence for cross-attention (keys and values).</source>
        <translation>交叉注意力的源序列（提供键和值）。</translation>
    </message>
    <message>
        <source>S&amp;ource:</source>
        <translation>源(&amp;O)：</translation>
    </message>
    <message>
        <source>Split per character (for text without spaces)</source>
        <translation>按字符切分（适用于没有空格的文本，如中文）</translation>
    </message>
    <message>
        <source>Length of a generated sequence t1 … tn with random embeddings.</source>
        <translation>生成的序列 t1 … tn 的长度，词向量随机。</translation>
    </message>
    <message>
        <source>&amp;Generate</source>
        <translation>生成(&amp;G)</translation>
    </message>
    <message>
        <source>Replace the target by n generated tokens.</source>
        <translation>用生成的 n 个词替换目标序列。</translation>
    </message>
    <message>
        <source>Length n:</source>
        <translation>长度 n：</translation>
    </message>
    <message>
        <source>(%1 tokens)</source>
        <translation>（%1 个词）</translation>
    </message>
</context>
<context>
    <name>attnlab::SessionFile</name>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>%1: %2: %3</source>
        <translation>%1：%2：%3</translation>
    </message>
    <message>
        <source>cannot be saved: %1</source>
        <translation>无法保存：%1</translation>
    </message>
    <message>
        <source>is empty; there must be at least one token.</source>
        <translation>为空；至少需要一个词。</translation>
    </message>
    <message>
        <source>has too many tokens.</source>
        <translation>词太多。</translation>
    </message>
    <message>
        <source>has %1 rows but there are %2 tokens; there must be one row per token.</source>
        <translation>有 %1 行，但有 %2 个词；每个词必须对应一行。</translation>
    </message>
    <message>
        <source>should have %1 rows (one per query) but has %2.</source>
        <translation>应有 %1 行（每个查询一行），实际有 %2 行。</translation>
    </message>
    <message>
        <source>should have %1 values (one per key) but has %2.</source>
        <translation>应有 %1 个值（每个键一个），实际有 %2 个。</translation>
    </message>
    <message>
        <source>the file is encoded as UTF-16; session files must be UTF-8.</source>
        <translation>文件编码为 UTF-16；会话文件必须是 UTF-8。</translation>
    </message>
    <message>
        <source>the file is encoded as UTF-32; session files must be UTF-8.</source>
        <translation>文件编码为 UTF-32；会话文件必须是 UTF-8。</translation>
    </message>
    <message>
        <source>the file is not valid UTF-8 text (line %1, byte %2).</source>
        <translation>文件不是有效的 UTF-8 文本（第 %1 行，第 %2 字节）。</translation>
    </message>
    <message>
        <source>is nested more than %1 levels deep (line %2).</source>
        <translation>嵌套超过 %1 层（第 %2 行）。</translation>
    </message>
    <message>
        <source>appears twice in the same object (line %1); each field may appear only once.</source>
        <translation>在同一个对象中出现了两次（第 %1 行）；每个字段只能出现一次。</translation>
    </message>
    <message>
        <source>the file is not valid JSON: %1 (line %2).</source>
        <translation>文件不是有效的 JSON：%1（第 %2 行）。</translation>
    </message>
    <message>
        <source>the file should hold one JSON object { … }.</source>
        <translation>文件应包含一个 JSON 对象 { … }。</translation>
    </message>
    <message>
        <source>is missing; this is not an AttnLab session file.</source>
        <translation>缺失；这不是 AttnLab 会话文件。</translation>
    </message>
    <message>
        <source>is &quot;%1&quot;, not &quot;%2&quot;; this is not an AttnLab session file.</source>
        <translation>是“%1”而不是“%2”；这不是 AttnLab 会话文件。</translation>
    </message>
    <message>
        <source>is missing.</source>
        <translation>缺失。</translation>
    </message>
    <message>
        <source>is %1, but this AttnLab reads version %2 and older. The file was written by a newer AttnLab.</source>
        <translation>是 %1，但此版本的 AttnLab 只能读取 %2 版及更早的版本。该文件由更新版本的 AttnLab 写入。</translation>
    </message>
    <message>
        <source>should have one matrix per head (%1) but has %2.</source>
        <translation>应为每个头各有一个矩阵（%1 个），实际有 %2 个。</translation>
    </message>
    <message>
        <source>should have one vector per head (%1) but has %2.</source>
        <translation>应为每个头各有一个向量（%1 个），实际有 %2 个。</translation>
    </message>
    <message>
        <source>should be a whole number from 0 to 2^64 − 1.</source>
        <translation>应为 0 到 2^64 − 1 之间的整数。</translation>
    </message>
    <message>
        <source>should be a whole number from 0 to 2^53 (larger seeds are written as text).</source>
        <translation>应为 0 到 2^53 之间的整数（更大的种子以文本形式写入）。</translation>
    </message>
    <message>
        <source>should be an object { … }.</source>
        <translation>应为一个对象 { … }。</translation>
    </message>
    <message>
        <source>is not a field of this format version.</source>
        <translation>不是此格式版本中的字段。</translation>
    </message>
    <message>
        <source>should be a list [ … ].</source>
        <translation>应为一个列表 [ … ]。</translation>
    </message>
    <message>
        <source>should be a number.</source>
        <translation>应为一个数。</translation>
    </message>
    <message>
        <source>is not a finite number.</source>
        <translation>不是有限数。</translation>
    </message>
    <message>
        <source>should be a whole number from %1 to %2.</source>
        <translation>应为 %1 到 %2 之间的整数。</translation>
    </message>
    <message>
        <source>should be true or false.</source>
        <translation>应为 true 或 false。</translation>
    </message>
    <message>
        <source>should be text in quotes.</source>
        <translation>应为带引号的文本。</translation>
    </message>
    <message>
        <source>is &quot;%1&quot;; it should be one of %2.</source>
        <translation>是“%1”；应为以下之一：%2。</translation>
    </message>
    <message>
        <source>should have %1 rows but has %2.</source>
        <translation>应有 %1 行，实际有 %2 行。</translation>
    </message>
    <message>
        <source>has no rows.</source>
        <translation>没有行。</translation>
    </message>
    <message>
        <source>should have %1 numbers but has %2.</source>
        <translation>应有 %1 个数，实际有 %2 个。</translation>
    </message>
    <message>
        <source>has no numbers.</source>
        <translation>没有数。</translation>
    </message>
    <message>
        <source>has %1 numbers but the first row has %2; every row must have the same length.</source>
        <translation>有 %1 个数，但第一行有 %2 个；每一行的长度必须相同。</translation>
    </message>
    <message>
        <source>is &quot;%1&quot;; it should be &quot;fixed&quot;, &quot;data&quot;, &quot;row&quot; or &quot;log&quot;.</source>
        <translation>是“%1”；应为 fixed、data、row 或 log。</translation>
    </message>
    <message>
        <source>is empty.</source>
        <translation>为空。</translation>
    </message>
    <message>
        <source>should be 64 lower-case hexadecimal digits (a SHA-256).</source>
        <translation>应为 64 个小写十六进制数字（一个 SHA-256）。</translation>
    </message>
    <message>
        <source>cannot be saved: the session would take %1 MiB, more than the %2 MiB a session file may hold.</source>
        <translation>无法保存：会话将占 %1 MiB，超过会话文件最多能容纳的 %2 MiB。</translation>
    </message>
    <message>
        <source>is %1, but some heads have no additive parameters; without them d_a may be at most %2.</source>
        <translation>是 %1，但有的头没有加性参数；没有参数时 d_a 最大只能是 %2。</translation>
    </message>
    <message>
        <source>holds %1 tokens: their attention weights alone would need %2 MiB of memory, more than the limit of %3 MiB. Use fewer tokens.</source>
        <translation>有 %1 个词：仅注意力权重就需要 %2 MiB 内存，超过了 %3 MiB 的上限。请减少词数。</translation>
    </message>
    <message>
        <source>%1: %2 (counted from 1): %3</source>
        <translation>%1：%2（从 1 开始计数）：%3</translation>
    </message>
    <message>
        <source>should be a number above 0.</source>
        <translation>应为大于 0 的数。</translation>
    </message>
    <message>
        <source>should be a number of at least 1.</source>
        <translation>应为不小于 1 的数。</translation>
    </message>
    <message>
        <source>should be a number above low_freq_factor (%1).</source>
        <translation>应为大于 low_freq_factor（%1）的数。</translation>
    </message>
    <message>
        <source>the file would take more than %1 MiB of memory to read (line %2): it holds too many values for its size.</source>
        <translation>读取这个文件需要超过 %1 MiB 的内存（第 %2 行）：就其大小而言，它包含的值太多。</translation>
    </message>
    <message>
        <source>holds a number out of the range of a double (line %1): %2</source>
        <translation>包含一个超出 double 范围的数（第 %1 行）：%2</translation>
    </message>
</context>
<context>
    <name>attnlab::SessionMatrixModel</name>
    <message>
        <source>%1 (head %2)</source>
        <translation>%1（头 %2）</translation>
    </message>
    <message>
        <source>%1[%2, %3] = %4</source>
        <translation>%1[%2, %3] = %4</translation>
    </message>
    <message>
        <source>“%1” is not a number between −%2 and %2; %3 keeps its value.</source>
        <translation>“%1”不是 −%2 到 %2 之间的数；%3 保持原值。</translation>
    </message>
</context>
<context>
    <name>attnlab::SessionOps</name>
    <message>
        <source>query %1 of head %2</source>
        <translation>头 %2 的查询 %1</translation>
    </message>
    <message>
        <source>key %1 of head %2</source>
        <translation>头 %2 的键 %1</translation>
    </message>
    <message>
        <source>value %1 of head %2</source>
        <translation>头 %2 的值 %1</translation>
    </message>
    <message>
        <source>The custom mask was removed: its shape no longer fits the sequences.</source>
        <translation>自定义掩码已移除：它的形状与序列不再相符。</translation>
    </message>
    <message numerus="yes">
        <source>%n vector edit(s) no longer fit and were dropped: %1.</source>
        <translation>
            <numerusform>%n 处向量编辑不再适用，已丢弃：%1。</numerusform>
        </translation>
    </message>
    <message>
        <source>Shared projections need d_v = d_k: new projections were drawn.</source>
        <translation>共用投影要求 d_v = d_k：已重新生成投影。</translation>
    </message>
    <message numerus="yes">
        <source>%n vector edit(s) were on tokens that changed and were dropped: %1.</source>
        <translation>
            <numerusform>%n 处向量编辑所在的词元已改变，已丢弃：%1。</numerusform>
        </translation>
    </message>
    <message>
        <source>The coreference task needs d_model of at least %1 (one component per feature: noun, animate, place, pronoun, function word, quality); this session has %2.</source>
        <translation>指代任务要求 d_model 至少为 %1（每个特征占一个分量：名词、有生命、地点、代词、功能词、性质）；本会话为 %2。</translation>
    </message>
    <message>
        <source>This task needs at least 2 tokens; this session has %1.</source>
        <translation>此任务至少需要 2 个词元；本会话有 %1 个。</translation>
    </message>
    <message>
        <source>The session no longer holds the real model&apos;s head: its matrices were trained.</source>
        <translation>会话中已不再是真实模型的头：其矩阵经过了训练。</translation>
    </message>
    <message numerus="yes">
        <source>%n vector edit(s) were on the old sequence and were dropped.</source>
        <translation>
            <numerusform>%n 处向量编辑属于旧序列，已丢弃。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n new token(s) got a random vector from the seed: %1. A token that only moved keeps its vector.</source>
        <translation>
            <numerusform>%n 个新词元得到了由种子生成的随机向量：%1。只是挪了位置的词元保留自己的向量。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>attnlab::ShortcutsDialog</name>
    <message>
        <source>Other</source>
        <translation>其他</translation>
    </message>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Shortcut</source>
        <translation>快捷键</translation>
    </message>
    <message>
        <source>Presenter view (F5)</source>
        <translation>演示视图（F5）</translation>
    </message>
    <message>
        <source>Walkthrough</source>
        <translation>逐步演示</translation>
    </message>
    <message>
        <source>Heatmaps</source>
        <translation>热力图</translation>
    </message>
    <message>
        <source>Model view</source>
        <translation>模型视图</translation>
    </message>
    <message>
        <source>Leave the presenter view</source>
        <translation>离开演示视图</translation>
    </message>
    <message>
        <source>No marking tool</source>
        <translation>不用标记工具</translation>
    </message>
    <message>
        <source>Pen</source>
        <translation>画笔</translation>
    </message>
    <message>
        <source>Highlighter</source>
        <translation>荧光笔</translation>
    </message>
    <message>
        <source>Ring</source>
        <translation>圆圈</translation>
    </message>
    <message>
        <source>Laser pointer</source>
        <translation>激光笔</translation>
    </message>
    <message>
        <source>Mark colour 1 to 4</source>
        <translation>标记颜色 1 至 4</translation>
    </message>
    <message>
        <source>Clear the marks</source>
        <translation>清除标记</translation>
    </message>
    <message>
        <source>Export the view with its marks</source>
        <translation>导出带标记的视图</translation>
    </message>
    <message>
        <source>Next step</source>
        <translation>下一步</translation>
    </message>
    <message>
        <source>Right, Page Down, Space</source>
        <translation>右方向键、Page Down、空格</translation>
    </message>
    <message>
        <source>Previous step</source>
        <translation>上一步</translation>
    </message>
    <message>
        <source>Left, Page Up, Backspace</source>
        <translation>左方向键、Page Up、退格</translation>
    </message>
    <message>
        <source>First step, last step</source>
        <translation>第一步、最后一步</translation>
    </message>
    <message>
        <source>Home, End</source>
        <translation>Home、End</translation>
    </message>
    <message>
        <source>Move the selected cell</source>
        <translation>移动选中的格子</translation>
    </message>
    <message>
        <source>Arrow keys</source>
        <translation>方向键</translation>
    </message>
    <message>
        <source>Mask or unmask a cell of the weights map</source>
        <translation>遮蔽或取消遮蔽权重图中的一个格子</translation>
    </message>
    <message>
        <source>%1+click</source>
        <translation>%1+单击</translation>
    </message>
    <message>
        <source>Move between heads and layers</source>
        <translation>在头和层之间移动</translation>
    </message>
    <message>
        <source>&amp;Keyboard shortcuts</source>
        <translation>键盘快捷键(&amp;K)</translation>
    </message>
    <message>
        <source>Model window</source>
        <translation>模型窗口</translation>
    </message>
</context>
<context>
    <name>attnlab::SnapshotDocument</name>
    <message>
        <source>A computation is still running: wait for it or cancel it first.</source>
        <translation>仍有计算在进行：请等待它完成，或先取消。</translation>
    </message>
</context>
<context>
    <name>attnlab::SpeedControl</name>
    <message>
        <source>Speed:</source>
        <translation>速度：</translation>
    </message>
    <message>
        <source>%1 steps/s</source>
        <translation>每秒 %1 步</translation>
    </message>
    <message>
        <source>Full speed</source>
        <translation>全速</translation>
    </message>
</context>
<context>
    <name>attnlab::StartPage</name>
    <message>
        <source>Welcome to AttnLab</source>
        <translation>欢迎使用 AttnLab</translation>
    </message>
    <message>
        <source>&lt;h2&gt;Attention you can touch&lt;/h2&gt;&lt;p&gt;Each lesson opens a ready-made session and a short text: what to look at, what to try, and why. Every number stays editable, and Undo brings back the lesson as it was.&lt;/p&gt;</source>
        <translation>&lt;h2&gt;亲手触摸注意力&lt;/h2&gt;&lt;p&gt;每门课程都会打开一个准备好的会话和一段简短的说明：看什么、试什么、为什么。每个数都可以编辑，“撤销”能把课程恢复原样。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Show this page at startup</source>
        <translation>启动时显示此页</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>打开</translation>
    </message>
    <message>
        <source>No lessons were found in this build.</source>
        <translation>此版本中没有找到课程。</translation>
    </message>
    <message numerus="yes">
        <source>▼ %n more lesson(s) below</source>
        <translation>
            <numerusform>▼ 下面还有 %n 课</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>attnlab::Status</name>
    <message>
        <source>The sequence has no tokens.</source>
        <translation>序列中没有词。</translation>
    </message>
    <message>
        <source>There must be at least one head.</source>
        <translation>至少需要一个头。</translation>
    </message>
    <message>
        <source>The embedding dimension is 0.</source>
        <translation>词向量维度为 0。</translation>
    </message>
    <message>
        <source>The key dimension d_k must be at least 1.</source>
        <translation>键维度 d_k 至少为 1。</translation>
    </message>
    <message>
        <source>The value dimension d_v must be at least 1.</source>
        <translation>值维度 d_v 至少为 1。</translation>
    </message>
    <message>
        <source>%1 should be %2 × %3 but is %4 × %5.</source>
        <translation>%1 应为 %2 × %3，实际为 %4 × %5。</translation>
    </message>
    <message>
        <source>%1 holds a value that is not a finite number (row %2, column %3).</source>
        <translation>%1 含有一个不是有限数的值（第 %2 行，第 %3 列）。</translation>
    </message>
    <message>
        <source>The mask should be %1 × %2 but is %3 × %4.</source>
        <translation>掩码应为 %1 × %2，实际为 %3 × %4。</translation>
    </message>
    <message>
        <source>The temperature must be a number greater than 0.</source>
        <translation>温度必须是大于 0 的数。</translation>
    </message>
    <message>
        <source>Shared projections need d_v equal to d_k.</source>
        <translation>共用投影矩阵要求 d_v 等于 d_k。</translation>
    </message>
    <message>
        <source>The edit names a head, token or component that does not exist.</source>
        <translation>该编辑指向一个不存在的头、词或分量。</translation>
    </message>
    <message>
        <source>This would need %1 MiB of memory, more than the limit of %2 MiB. Use fewer tokens or heads.</source>
        <translation>这需要 %1 MiB 内存，超过了 %2 MiB 的上限。请减少词数或头数。</translation>
    </message>
    <message>
        <source>%1 is empty: additive scoring needs every head&apos;s W_a, U_a and v (d_a at least 1).</source>
        <translation>%1 为空：加性打分需要每个头的 W_a、U_a 和 v（d_a 至少为 1）。</translation>
    </message>
    <message>
        <source>%1 is too large: an edit may scale a vector by at most 1e100 (beyond, its scores overflow).</source>
        <translation>%1 太大：一次编辑最多把向量放大 1e100 倍（再大的话，它的分数会溢出）。</translation>
    </message>
    <message>
        <source>The scale</source>
        <translation>缩放倍数</translation>
    </message>
    <message>
        <source>%1 is negative at row %2, column %3: a target pattern holds weights of 0 or more.</source>
        <translation>%1 在第 %2 行第 %3 列为负数：目标模式中的权重须不小于 0。</translation>
    </message>
    <message>
        <source>layer %1</source>
        <translation>第 %1 层</translation>
    </message>
    <message>
        <source>head %1</source>
        <translation>头 %1</translation>
    </message>
    <message>
        <source>edit %1</source>
        <translation>编辑 %1</translation>
    </message>
    <message>
        <source>, </source>
        <translation>，</translation>
    </message>
    <message>
        <source>the query vectors Q</source>
        <translation>查询向量 Q</translation>
    </message>
    <message>
        <source>the key vectors K</source>
        <translation>键向量 K</translation>
    </message>
    <message>
        <source>the value vectors V</source>
        <translation>值向量 V</translation>
    </message>
    <message>
        <source>the scores</source>
        <translation>分数</translation>
    </message>
    <message>
        <source>the scaled scores</source>
        <translation>缩放后的分数</translation>
    </message>
    <message>
        <source>the weights</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>its output</source>
        <translation>它的输出</translation>
    </message>
    <message>
        <source>the embeddings</source>
        <translation>词向量</translation>
    </message>
    <message>
        <source>the final LayerNorm</source>
        <translation>最后的 LayerNorm</translation>
    </message>
    <message>
        <source>layer %1 head %2</source>
        <translation>第 %1 层第 %2 个头</translation>
    </message>
    <message>
        <source>%1, %2</source>
        <translation>%1，%2</translation>
    </message>
    <message>
        <source>A value is not a finite number.</source>
        <translation>有一个值不是有限数。</translation>
    </message>
    <message>
        <source>%1: a value is not a finite number.</source>
        <translation>%1：有一个值不是有限数。</translation>
    </message>
    <message>
        <source>The weights caused it: %1 holds NaN or Inf.</source>
        <translation>原因在权重：%1 含有 NaN 或 Inf。</translation>
    </message>
    <message>
        <source>a tensor</source>
        <translation>某个张量</translation>
    </message>
    <message>
        <source>The text caused it: the weights are finite, but on this text a value grows beyond the range of a float.</source>
        <translation>原因在文本：权重都是有限数，但在这段文本上有一个值超出了 float 的范围。</translation>
    </message>
    <message>
        <source>Edit %1 (%2) caused it; the run without edits is finite.</source>
        <translation>原因在编辑 %1（%2）；不加编辑时的运行结果都是有限数。</translation>
    </message>
    <message>
        <source>The edit caused it; the run without edits is finite.</source>
        <translation>原因在编辑；不加编辑时的运行结果都是有限数。</translation>
    </message>
    <message>
        <source>%1: </source>
        <translation>%1：</translation>
    </message>
    <message>
        <source>Edit %1 (%2)</source>
        <translation>编辑 %1（%2）</translation>
    </message>
    <message>
        <source>%1: the model has %2 layers.</source>
        <translation>%1：模型只有 %2 层。</translation>
    </message>
    <message>
        <source>%1: the model has %2 heads.</source>
        <translation>%1：模型只有 %2 个头。</translation>
    </message>
    <message>
        <source>%1: the text has %2 tokens.</source>
        <translation>%1：文本只有 %2 个词。</translation>
    </message>
    <message>
        <source>%1: the scale is not a finite number.</source>
        <translation>%1：缩放倍数不是有限数。</translation>
    </message>
    <message>
        <source>%1 changes the same as edit %2; give each once.</source>
        <translation>%1与编辑%2改动的是同一处；每处只能编辑一次。</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>cannot be opened (%1).</source>
        <translation>无法打开（%1）。</translation>
    </message>
    <message>
        <source>the file is shorter than its header says (%1).</source>
        <translation>文件比文件头所说的短（%1）。</translation>
    </message>
    <message>
        <source>the header is too large (%1).</source>
        <translation>文件头太大（%1）。</translation>
    </message>
    <message>
        <source>the header is not a valid JSON object (%1).</source>
        <translation>文件头不是有效的 JSON 对象（%1）。</translation>
    </message>
    <message>
        <source>%1: its dtype, shape or data_offsets is missing or malformed (%2).</source>
        <translation>%1：它的 dtype、shape 或 data_offsets 缺失或格式错误（%2）。</translation>
    </message>
    <message>
        <source>%1: a data type this program does not know (%2).</source>
        <translation>%1：本程序不认识的数据类型（%2）。</translation>
    </message>
    <message>
        <source>%1: a data type the model cannot use (%2).</source>
        <translation>%1：模型无法使用的数据类型（%2）。</translation>
    </message>
    <message>
        <source>%1: its data offsets are out of range or disagree with its shape (%2).</source>
        <translation>%1：它的数据偏移越界或与形状不符（%2）。</translation>
    </message>
    <message>
        <source>%1 shares bytes with another tensor.</source>
        <translation>%1 与另一个张量共用了字节。</translation>
    </message>
    <message>
        <source>the configuration cannot be read (%1).</source>
        <translation>无法读取配置（%1）。</translation>
    </message>
    <message>
        <source>the field %1 is missing or wrong (%2).</source>
        <translation>字段%1缺失或有误（%2）。</translation>
    </message>
    <message>
        <source>%1: this model or option is not supported (%2).</source>
        <translation>%1：不支持这种模型或选项（%2）。</translation>
    </message>
    <message>
        <source>the tensor %1 is missing (%2).</source>
        <translation>缺少张量 %1（%2）。</translation>
    </message>
    <message>
        <source>%1 has the wrong shape (%2).</source>
        <translation>%1 的形状不对（%2）。</translation>
    </message>
    <message>
        <source>There are no tokens to run.</source>
        <translation>没有可运行的词。</translation>
    </message>
    <message>
        <source>The text has %1 tokens, more than the model&apos;s %2 positions; it is not cut short.</source>
        <translation>文本有 %1 个词，超过模型的 %2 个位置；文本不会被截断。</translation>
    </message>
    <message>
        <source>There is not enough memory for this many tokens.</source>
        <translation>内存不足以处理这么多词。</translation>
    </message>
    <message>
        <source>Token %1 has the id %2, outside the vocabulary of %3.</source>
        <translation>第 %1 个词的 id 是 %2，超出了 %3 个词的词表。</translation>
    </message>
    <message>
        <source>Position %1 is outside the %2 tokens.</source>
        <translation>位置 %1 超出了 %2 个词的范围。</translation>
    </message>
    <message>
        <source>%1: this layer or head is not in the model or not in the run (%2).</source>
        <translation>%1：模型或本次运行中没有这一层或这个头（%2）。</translation>
    </message>
    <message>
        <source>Cancelled.</source>
        <translation>已取消。</translation>
    </message>
    <message>
        <source>the tokenizer file cannot be read (%1).</source>
        <translation>无法读取分词器文件（%1）。</translation>
    </message>
    <message>
        <source>the tokenizer file is not valid (%1).</source>
        <translation>分词器文件无效（%1）。</translation>
    </message>
    <message>
        <source>%1 holds a value that is not a finite number.</source>
        <translation>%1 含有一个不是有限数的值。</translation>
    </message>
    <message>
        <source>%1: the edit names a head, token or component that does not exist.</source>
        <translation>%1：该编辑指向一个不存在的头、词或分量。</translation>
    </message>
    <message>
        <source>%1 edits the same vector (%2) as edit %3; each vector may have one edit.</source>
        <translation>%1与编辑%3编辑的是同一个向量（%2）；每个向量只能有一处编辑。</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <comment>two sentences</comment>
        <translation>%1%2</translation>
    </message>
    <message>
        <source>Rotary positions (RoPE) turn q and k in pairs of coordinates, so d_k must be even; it is %1.</source>
        <translation>旋转位置编码（RoPE）按坐标对旋转 q 和 k，所以 d_k 必须是偶数；现在是 %1。</translation>
    </message>
    <message>
        <source>Rotary positions (RoPE) need dot-product scoring: only q·k turns into a function of the distance between the positions.</source>
        <translation>旋转位置编码（RoPE）需要点积打分：只有 q·k 会变成两个位置之间距离的函数。</translation>
    </message>
    <message>
        <source>The RoPE base θ must be a number above 0.</source>
        <translation>RoPE 的基数 θ 必须是大于 0 的数。</translation>
    </message>
    <message>
        <source>The RoPE scaling factor must be a number of at least 1.</source>
        <translation>RoPE 的缩放因子必须是不小于 1 的数。</translation>
    </message>
    <message>
        <source>llama3 RoPE scaling needs 0 &lt; low_freq_factor &lt; high_freq_factor.</source>
        <translation>llama3 的 RoPE 缩放要求 0 &lt; low_freq_factor &lt; high_freq_factor。</translation>
    </message>
    <message>
        <source>llama3 RoPE scaling needs original_max_position_embeddings above 0.</source>
        <translation>llama3 的 RoPE 缩放要求 original_max_position_embeddings 大于 0。</translation>
    </message>
    <message>
        <source>the tokenizer does not fit the model (%1).</source>
        <translation>分词器与模型不匹配（%1）。</translation>
    </message>
    <message>
        <source>The tokenizer&apos;s %1 would make the text %2 bytes long, more than the limit of %3; it is not run.</source>
        <translation>分词器的%1会使文本长达 %2 字节，超过上限 %3；未运行。</translation>
    </message>
    <message>
        <source>does not belong with the other files of its folder (%1). The folder was changed after AttnLab wrote it; it is not opened.</source>
        <translation>与所在文件夹中的其他文件不匹配（%1）。这个文件夹在 AttnLab 写出之后被改动过；不予打开。</translation>
    </message>
    <message>
        <source>%1 sets component %2 twice; give each component once.</source>
        <translation>%1 两次设置了分量 %2；每个分量只能设置一次。</translation>
    </message>
    <message>
        <source>The edit</source>
        <translation>该编辑</translation>
    </message>
    <message>
        <source>This training run would hold about %1 MiB of memory, more than the limit of %2 MiB. Use a smaller model, batch or context.</source>
        <translation>这次训练大约需要 %1 MiB 内存，超过上限 %2 MiB。请使用更小的模型、批量或上下文。</translation>
    </message>
    <message>
        <source>The run&apos;s training.json would be about %1 MiB, more than the limit of %2 MiB. Measure less often or train fewer steps.</source>
        <translation>这次训练的 training.json 大约有 %1 MiB，超过上限 %2 MiB。请减少测量次数或训练步数。</translation>
    </message>
    <message>
        <source>Cross-attention needs a source sequence with at least one token: type it in the Sequences panel (View ▸ Panels ▸ Sequences), under Source.</source>
        <translation>交叉注意力需要至少有一个词的源序列：请在「序列」面板（视图 ▸ 面板 ▸ 序列）的“源”一栏里输入。</translation>
    </message>
    <message>
        <source>not a torch.save checkpoint this program reads (%1).</source>
        <translation>不是本程序能读取的 torch.save 检查点（%1）。</translation>
    </message>
    <message>
        <source>not a torch.save checkpoint this program reads: %1 (%2).</source>
        <translation>不是本程序能读取的 torch.save 检查点：%1（%2）。</translation>
    </message>
    <message>
        <source>its pickle names %1, which is never called: a checkpoint is read only as tensors, since a pickle that names a function could run any code.</source>
        <translation>它的 pickle 提到了 %1，本程序不会调用它：检查点只按张量读取，因为提到函数的 pickle 可能运行任意代码。</translation>
    </message>
</context>
<context>
    <name>attnlab::TrainerDisplay</name>
    <message>
        <source>&amp;Log scale</source>
        <translation>对数坐标(&amp;L)</translation>
    </message>
    <message>
        <source>Draw the loss on a logarithmic axis: late progress stays visible.</source>
        <translation>以对数坐标轴绘制损失：后期的进展也看得清。</translation>
    </message>
    <message numerus="yes">
        <source>P after %n step(s)</source>
        <translation>
            <numerusform>%n 步后的 P</numerusform>
        </translation>
    </message>
    <message>
        <source>P (not started)</source>
        <translation>P（尚未开始）</translation>
    </message>
    <message>
        <source>Row %1 “%2”: P vs target</source>
        <translation>第 %1 行“%2”：P 与目标</translation>
    </message>
</context>
<context>
    <name>attnlab::TrainerPanel</name>
    <message>
        <source>Step %1</source>
        <translation>第 %1 步</translation>
    </message>
    <message>
        <source>The pattern is %1 x %2, the session&apos;s weights %3 x %4.</source>
        <translation>模式为 %1 × %2，而会话的权重为 %3 × %4。</translation>
    </message>
    <message>
        <source>The session changed, so the run went back to step 0.</source>
        <translation>会话已改变，训练回到第 0 步。</translation>
    </message>
    <message>
        <source>Film strip at: whole numbers of 0 or more, such as 0, 10, 100, 1000.</source>
        <translation>胶片帧步数：须为不小于 0 的整数，例如 0, 10, 100, 1000。</translation>
    </message>
    <message>
        <source>Target (click to paint)</source>
        <translation>目标（点击绘制）</translation>
    </message>
    <message>
        <source>Target of the task</source>
        <translation>任务的目标</translation>
    </message>
    <message>
        <source>Step 0: press Start (or Step).</source>
        <translation>第 0 步：按“开始”（或“单步”）。</translation>
    </message>
    <message numerus="yes">
        <source>Kept after %n step(s): one undo step (Edit ▸ Undo restores the session).</source>
        <translation>
            <numerusform>已保留 %n 步后的结果：为一个撤销步骤（编辑 ▸ 撤销可恢复会话）。</numerusform>
        </translation>
    </message>
    <message>
        <source>Discarded: the session is as it was.</source>
        <translation>已丢弃：会话保持原样。</translation>
    </message>
    <message>
        <source>Separate W_Q, W_K</source>
        <translation>各自的 W_Q、W_K</translation>
    </message>
    <message>
        <source>Step %1 failed: %2 (try a smaller learning rate)</source>
        <translation>第 %1 步失败：%2（请尝试更小的学习率）</translation>
    </message>
    <message>
        <source>Step %1 of %2 · loss %3</source>
        <translation>第 %1 / %2 步 · 损失 %3</translation>
    </message>
    <message>
        <source> · %1 steps/s</source>
        <translation> · 每秒 %1 步</translation>
    </message>
    <message>
        <source> · shared: %1</source>
        <translation> · 共用：%1</translation>
    </message>
    <message>
        <source>One shared projection</source>
        <translation>一个共用投影</translation>
    </message>
    <message>
        <source>The settings belong to the run: Reset or Discard to change them.</source>
        <translation>这些设置属于本次训练：请先“重置”或“丢弃”再修改。</translation>
    </message>
    <message>
        <source>No run.</source>
        <translation>没有训练。</translation>
    </message>
    <message>
        <source>Already training.</source>
        <translation>正在训练。</translation>
    </message>
    <message>
        <source>The run has taken every step: raise Steps to go on.</source>
        <translation>已走完全部步数：增大“步数”即可继续。</translation>
    </message>
    <message>
        <source>Co&amp;ntinue</source>
        <translation>继续(&amp;N)</translation>
    </message>
    <message>
        <source>&amp;Start</source>
        <translation>开始(&amp;S)</translation>
    </message>
    <message>
        <source>Not training.</source>
        <translation>未在训练。</translation>
    </message>
    <message>
        <source>A comparison runs both trainings together: use Start.</source>
        <translation>对比会同时进行两次训练：请用“开始”。</translation>
    </message>
    <message>
        <source>Pause first.</source>
        <translation>请先暂停。</translation>
    </message>
    <message>
        <source>Already at step 0.</source>
        <translation>已在第 0 步。</translation>
    </message>
    <message>
        <source>Take at least one step first.</source>
        <translation>请先至少走一步。</translation>
    </message>
    <message>
        <source>Nothing to discard yet.</source>
        <translation>尚无可丢弃的内容。</translation>
    </message>
    <message>
        <source>%1: the pattern is %2 x %3, the session&apos;s weights %4 x %5.</source>
        <translation>%1：模式为 %2 × %3，而会话的权重为 %4 × %5。</translation>
    </message>
    <message>
        <source>No loss curve yet: take a step first.</source>
        <translation>还没有损失曲线：请先走一步。</translation>
    </message>
    <message>
        <source>Training loss: %1</source>
        <translation>训练损失：%1</translation>
    </message>
    <message numerus="yes">
        <source>%1, learning rate %2, %n step(s).</source>
        <translation>
            <numerusform>%1，学习率 %2，%n 步。</numerusform>
        </translation>
    </message>
    <message>
        <source>No frames yet: start the run first.</source>
        <translation>还没有帧：请先开始训练。</translation>
    </message>
    <message>
        <source>Learning the pattern: %1</source>
        <translation>学习模式：%1</translation>
    </message>
    <message>
        <source>The trained head&apos;s weights P on the task&apos;s first sequence, at the steps shown (%1, learning rate %2).</source>
        <translation>被训练的头在任务第一个序列上的权重 P，取自所示各步（%1，学习率 %2）。</translation>
    </message>
    <message>
        <source>Pause first: the curve is still growing.</source>
        <translation>请先暂停：曲线仍在增长。</translation>
    </message>
    <message>
        <source>Previous token</source>
        <translation>前一个词元</translation>
    </message>
    <message>
        <source>Match (same feature)</source>
        <translation>匹配（相同特征）</translation>
    </message>
    <message>
        <source>Coreference (toy)</source>
        <translation>指代（玩具示例）</translation>
    </message>
    <message>
        <source>Your own pattern</source>
        <translation>自定义模式</translation>
    </message>
    <message>
        <source>What the trained head should attend to. Each task makes its own sequences (your own pattern: the session&apos;s tokens).</source>
        <translation>被训练的头应当关注什么。每个任务生成自己的序列（自定义模式：使用会话的词元）。</translation>
    </message>
    <message>
        <source>Adam</source>
        <translation>Adam</translation>
    </message>
    <message>
        <source>SGD with momentum</source>
        <translation>带动量的 SGD</translation>
    </message>
    <message>
        <source>The step size of the optimiser (too large and the loss jumps).</source>
        <translation>优化器的步长（过大则损失会跳动）。</translation>
    </message>
    <message>
        <source>Start runs until this many steps have been taken in all.</source>
        <translation>“开始”会一直训练到总共走完这么多步。</translation>
    </message>
    <message>
        <source>The steps at which the map is kept for the film-strip figure (the last step taken is added).</source>
        <translation>为胶片图保留注意力图的步数（另加上最后一步）。</translation>
    </message>
    <message>
        <source>Train W_&amp;V too</source>
        <translation>同时训练 W_V(&amp;V)</translation>
    </message>
    <message>
        <source>Also learn W_V, so that each output copies the tokens it attends to (adds a mean squared error on the output).</source>
        <translation>同时学习 W_V，使每个输出复制它所关注的词元（在输出上加一项均方误差）。</translation>
    </message>
    <message>
        <source>&amp;One shared projection</source>
        <translation>一个共用投影(&amp;O)</translation>
    </message>
    <message>
        <source>Learn one matrix W for Q, K and V: the scores X W Wᵀ Xᵀ are then symmetric.</source>
        <translation>为 Q、K、V 只学习一个矩阵 W：此时分数 X W Wᵀ Xᵀ 是对称的。</translation>
    </message>
    <message>
        <source>Train until the step count</source>
        <translation>训练到设定的步数</translation>
    </message>
    <message>
        <source>&amp;Pause</source>
        <translation>暂停(&amp;P)</translation>
    </message>
    <message>
        <source>Stop after the current step</source>
        <translation>在当前这一步之后停止</translation>
    </message>
    <message>
        <source>S&amp;tep</source>
        <translation>单步(&amp;T)</translation>
    </message>
    <message>
        <source>Take one step</source>
        <translation>走一步</translation>
    </message>
    <message>
        <source>&amp;Reset</source>
        <translation>重置(&amp;R)</translation>
    </message>
    <message>
        <source>Back to step 0: the session&apos;s matrices, the settings unlocked</source>
        <translation>回到第 0 步：恢复会话的矩阵，并解锁设置</translation>
    </message>
    <message>
        <source>&amp;Keep</source>
        <translation>保留(&amp;K)</translation>
    </message>
    <message>
        <source>Put the learned matrices into the session (one undo step)</source>
        <translation>把学到的矩阵放入会话（一个撤销步骤）</translation>
    </message>
    <message>
        <source>&amp;Discard</source>
        <translation>丢弃(&amp;D)</translation>
    </message>
    <message>
        <source>Drop the run; the session stays as it is</source>
        <translation>丢弃本次训练；会话保持不变</translation>
    </message>
    <message>
        <source>&amp;Compare with one shared projection</source>
        <translation>与一个共用投影对比(&amp;C)</translation>
    </message>
    <message>
        <source>Train the task twice, with separate and with one shared projection (same seed and settings), and draw both loss curves</source>
        <translation>把任务训练两次——分别用各自的投影和一个共用投影（相同的种子和设置）——并画出两条损失曲线</translation>
    </message>
    <message>
        <source>Pattern from the current &amp;P</source>
        <translation>以当前 P 为模式(&amp;P)</translation>
    </message>
    <message>
        <source>Start the target from the session&apos;s weights; then click cells of the target map (click: that key only; Shift+click: add or remove a key)</source>
        <translation>以会话的权重作为目标的起点；然后点击目标图的单元格（点击：只关注该键；Shift+点击：加入或去掉一个键）</translation>
    </message>
    <message>
        <source>Take P from another session…</source>
        <translation>从另一个会话取 P…</translation>
    </message>
    <message>
        <source>The weights of another session (or a CSV, one row per query) as the target</source>
        <translation>以另一个会话的权重（或 CSV，每个查询一行）作为目标</translation>
    </message>
    <message>
        <source>&amp;Export</source>
        <translation>导出(&amp;E)</translation>
    </message>
    <message>
        <source>Loss curve (PNG, SVG, PDF)…</source>
        <translation>损失曲线（PNG、SVG、PDF）…</translation>
    </message>
    <message>
        <source>Export the loss curve</source>
        <translation>导出损失曲线</translation>
    </message>
    <message>
        <source>Figures (*.png *.svg *.pdf)</source>
        <translation>图像 (*.png *.svg *.pdf)</translation>
    </message>
    <message>
        <source>Film strip of the map (PNG, SVG, PDF)…</source>
        <translation>注意力图胶片（PNG、SVG、PDF）…</translation>
    </message>
    <message>
        <source>Export the film strip</source>
        <translation>导出胶片图</translation>
    </message>
    <message>
        <source>Loss curve as CSV…</source>
        <translation>损失曲线导出为 CSV…</translation>
    </message>
    <message>
        <source>Export the loss curve as CSV</source>
        <translation>将损失曲线导出为 CSV</translation>
    </message>
    <message>
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message>
        <source>T&amp;ask:</source>
        <translation>任务(&amp;A)：</translation>
    </message>
    <message>
        <source>Optimi&amp;ser:</source>
        <translation>优化器(&amp;S)：</translation>
    </message>
    <message>
        <source>Learning &amp;rate:</source>
        <translation>学习率(&amp;R)：</translation>
    </message>
    <message>
        <source>Ste&amp;ps:</source>
        <translation>步数(&amp;P)：</translation>
    </message>
    <message>
        <source>&amp;Film strip at:</source>
        <translation>胶片帧步数(&amp;F)：</translation>
    </message>
    <message>
        <source>Take P from another session</source>
        <translation>从另一个会话取 P</translation>
    </message>
    <message>
        <source>Sessions (*.json);;Patterns as CSV (*.csv *.txt)</source>
        <translation>会话 (*.json);;CSV 模式 (*.csv *.txt)</translation>
    </message>
    <message>
        <source> · separate: %1</source>
        <translation> · 各自投影：%1</translation>
    </message>
    <message>
        <source>Already comparing: Reset to start again.</source>
        <translation>正在对比：按“重置”可重新开始。</translation>
    </message>
    <message>
        <source>&amp;Compare with separate projections</source>
        <translation>与各自的投影对比(&amp;C)</translation>
    </message>
    <message>
        <source>Training uses its own sequence %1, not the session&apos;s tokens %2.</source>
        <translation>训练使用任务自己的序列 %1，而不是会话的词元 %2。</translation>
    </message>
    <message>
        <source>Keep the trained matrices</source>
        <translation>保留训练得到的矩阵</translation>
    </message>
    <message>
        <source>Keep with its &amp;sequence</source>
        <translation>连同其序列一起保留(&amp;S)</translation>
    </message>
    <message>
        <source>Keep only the &amp;matrices</source>
        <translation>只保留矩阵(&amp;M)</translation>
    </message>
    <message>
        <source>Training used its own sequence %1, not the session&apos;s tokens %2.</source>
        <translation>训练使用的是任务自己的序列 %1，而不是会话的词元 %2。</translation>
    </message>
    <message>
        <source>Keep with its sequence: the session&apos;s tokens and embeddings are replaced by the training sequence, so the main map shows what the trainer showed.</source>
        <translation>连同序列一起保留：会话的词元和嵌入将被训练序列替换，主热图因此显示与训练器相同的内容。</translation>
    </message>
    <message>
        <source>Keep only the matrices: the session&apos;s tokens stay, and the learned matrices are applied to them.</source>
        <translation>只保留矩阵：会话的词元保持不变，学到的矩阵作用于这些词元。</translation>
    </message>
    <message>
        <source>Either is one undo step (Edit ▸ Undo).</source>
        <translation>两者都是一个撤销步骤（编辑 ▸ 撤销）。</translation>
    </message>
    <message>
        <source>Not kept: the session is as it was.</source>
        <translation>未保留：会话保持原样。</translation>
    </message>
    <message>
        <source>The run changed meanwhile: nothing was kept.</source>
        <translation>训练在此期间已改变：没有保留任何内容。</translation>
    </message>
    <message>
        <source>Keep trained matrices (tokens unchanged)</source>
        <translation>保留训练得到的矩阵（词元不变）</translation>
    </message>
    <message>
        <source>How fast training runs. Slow it down so that a class can watch the map change: at the slowest, 5 steps/s, 100 steps take about 20 s.</source>
        <translation>训练运行的速度。放慢后，全班可以看着热图一步步变化：最慢为每秒 5 步，100 步约需 20 秒。</translation>
    </message>
</context>
<context>
    <name>attnlab::TrainingCurvePlot</name>
    <message>
        <source>Step</source>
        <translation>步数</translation>
    </message>
    <message>
        <source>Loss</source>
        <translation>损失</translation>
    </message>
    <message>
        <source>Copy accuracy</source>
        <translation>复制准确率</translation>
    </message>
    <message>
        <source>loss</source>
        <translation>损失</translation>
    </message>
    <message>
        <source>copy accuracy</source>
        <translation>复制准确率</translation>
    </message>
    <message>
        <source>Loss and copy accuracy</source>
        <translation>损失与复制准确率</translation>
    </message>
    <message>
        <source>Exact match</source>
        <translation>完全匹配</translation>
    </message>
    <message>
        <source>exact match</source>
        <translation>完全匹配</translation>
    </message>
    <message>
        <source>Loss and exact match</source>
        <translation>损失与完全匹配</translation>
    </message>
</context>
<context>
    <name>attnlab::TranslatorCrossView</name>
    <message>
        <source>One cross-attention head on a fixed date, the target&apos;s pieces as rows and the source&apos;s as columns. As alignment forms, the month&apos;s row lights 十二月, the day&apos;s 四 and the year&apos;s digits 二〇二六: a diagonal that crosses, since the year comes first in Chinese and last in English.</source>
        <translation>一个交叉注意力头在一个固定日期上的权重：行是目标的词片，列是原文的词片。对齐形成时，月份那一行点亮十二月，日那一行点亮四，年份的各位数字点亮二〇二六：一条交叉的对角线，因为年份在中文里在最前、在英文里在最后。</translation>
    </message>
    <message>
        <source>The cross-attention map of the example appears here.</source>
        <translation>示例的交叉注意力图显示在这里。</translation>
    </message>
    <message>
        <source>step %1</source>
        <translation>第 %1 步</translation>
    </message>
    <message>
        <source>No step of the film strip has been kept yet: train past one of its steps, or press Keep This Step.</source>
        <translation>胶片条还没有保存任何一步：先训练过其中某一步，或者按“保存这一步”。</translation>
    </message>
    <message>
        <source>Layer %1 head %2&apos;s cross-attention as training goes on: rows the English target, columns the Chinese source; weights on [0, 1].</source>
        <translation>第 %1 层第 %2 个头的交叉注意力随训练的变化：行是英文目标，列是中文原文；权重范围 [0, 1]。</translation>
    </message>
</context>
<context>
    <name>attnlab::TranslatorTrainerPanel</name>
    <message>
        <source>E&amp;ncoder layers:</source>
        <translation>编码器层数(&amp;N)：</translation>
    </message>
    <message>
        <source>&amp;Decoder layers:</source>
        <translation>解码器层数(&amp;D)：</translation>
    </message>
    <message>
        <source>&amp;Heads:</source>
        <translation>头数(&amp;H)：</translation>
    </message>
    <message>
        <source>&amp;Width:</source>
        <translation>宽度(&amp;W)：</translation>
    </message>
    <message>
        <source>d_model, the width of the residual stream (a multiple of the heads)</source>
        <translation>d_model，残差流的宽度（须为头数的倍数）</translation>
    </message>
    <message>
        <source>S&amp;teps:</source>
        <translation>步数(&amp;T)：</translation>
    </message>
    <message>
        <source>S&amp;eed:</source>
        <translation>种子(&amp;E)：</translation>
    </message>
    <message>
        <source>The same settings and seed train the same model, bit for bit</source>
        <translation>同样的设置和种子训练出逐位相同的模型</translation>
    </message>
    <message>
        <source>Open in Model Window</source>
        <translation>在模型窗口中打开</translation>
    </message>
    <message>
        <source>Writes the model as a Marian folder and opens it in the translator window: switch its cross-attention heads off there and watch the translation</source>
        <translation>把模型写成 Marian 文件夹并在翻译窗口中打开：在那里关掉它的交叉注意力头，看译文如何变化</translation>
    </message>
    <message>
        <source>Save Model…</source>
        <translation>保存模型…</translation>
    </message>
    <message>
        <source>Write the model as a Hugging Face Marian folder with its training.json</source>
        <translation>把模型写成带 training.json 的 Hugging Face Marian 文件夹</translation>
    </message>
    <message>
        <source>&amp;Map of:</source>
        <translation>显示的头(&amp;M)：</translation>
    </message>
    <message>
        <source>&amp;Film strip:</source>
        <translation>胶片条(&amp;F)：</translation>
    </message>
    <message>
        <source>The steps whose map is kept for the film strip</source>
        <translation>为胶片条保留哪些步的图</translation>
    </message>
    <message>
        <source>Keep This Step</source>
        <translation>保存这一步</translation>
    </message>
    <message>
        <source>Add the map of the current step to the film strip</source>
        <translation>把当前这一步的图加入胶片条</translation>
    </message>
    <message>
        <source>Export Film Strip…</source>
        <translation>导出胶片条…</translation>
    </message>
    <message>
        <source>Best aligned head</source>
        <translation>对齐最好的头</translation>
    </message>
    <message>
        <source>The head whose map is shown and exported: by default the one with the best alignment at the latest measure</source>
        <translation>显示和导出哪个头的图：默认是最近一次测量中对齐度最好的头</translation>
    </message>
    <message>
        <source>Layer %1 head %2</source>
        <translation>第 %1 层第 %2 个头</translation>
    </message>
    <message>
        <source>Pause the training first: the model is saved as it stands between steps.</source>
        <translation>请先暂停训练：模型按两步之间的状态保存。</translation>
    </message>
    <message>
        <source>Trained translator, step %1 of %2 (the model trainer)</source>
        <translation>训练中的翻译模型，第 %1 步，共 %2 步（模型训练器）</translation>
    </message>
    <message>
        <source>There is no model to open: the settings above were refused.</source>
        <translation>没有可以打开的模型：上面的设置被拒绝了。</translation>
    </message>
    <message>
        <source>There is no model window to open it in.</source>
        <translation>没有可以打开它的模型窗口。</translation>
    </message>
    <message>
        <source>There is no run to export.</source>
        <translation>没有可以导出的训练。</translation>
    </message>
    <message>
        <source>The film strip&apos;s steps are whole numbers from 0, separated by commas</source>
        <translation>胶片条的步数是从 0 起的整数，用逗号分隔</translation>
    </message>
    <message>
        <source>Cross-attention learns to align: %1 → %2</source>
        <translation>交叉注意力学会对齐：%1 → %2</translation>
    </message>
    <message>
        <source>Layer %1 head %2, step %3</source>
        <translation>第 %1 层第 %2 个头，第 %3 步</translation>
    </message>
    <message>
        <source>Alignment formed at step %1: the best head (layer %2 head %3) now looks at the right field for %4 of the month, day and year tokens, up from %5 at step 0; exact match %6.</source>
        <translation>对齐在第 %1 步形成：最好的头（第 %2 层第 %3 个头）在月、日、年词元中看对字段的比例现在是 %4，第 0 步时是 %5；完全匹配 %6。</translation>
    </message>
    <message>
        <source>Step %1 of %2</source>
        <translation>第 %1 步，共 %2 步</translation>
    </message>
    <message>
        <source> · loss %1</source>
        <translation> · 损失 %1</translation>
    </message>
    <message>
        <source> · exact match %1 · best alignment %2 (layer %3 head %4)</source>
        <translation> · 完全匹配 %1 · 最好的对齐度 %2（第 %3 层第 %4 个头）</translation>
    </message>
</context>
<context>
    <name>attnlab::VectorEditorPanel</name>
    <message>
        <source>Components:</source>
        <translation>分量：</translation>
    </message>
    <message>
        <source>Which components get sliders, counted from 1: for example 1,2,5-8 (at most %1).</source>
        <translation>为哪些分量显示滑块，从 1 开始计数：例如 1,2,5-8（最多 %1 个）。</translation>
    </message>
    <message>
        <source>Around token:</source>
        <translation>附近的词：</translation>
    </message>
    <message>
        <source>The sequence is long: only the tokens around this one are shown.</source>
        <translation>序列较长：只显示这个词附近的词。</translation>
    </message>
    <message>
        <source>#%1</source>
        <translation>#%1</translation>
    </message>
    <message>
        <source>q%1</source>
        <translation>q%1</translation>
    </message>
    <message>
        <source>k%1</source>
        <translation>k%1</translation>
    </message>
    <message>
        <source>v%1</source>
        <translation>v%1</translation>
    </message>
    <message>
        <source>Components must be numbers from 1 to %1, such as 1,2,5-8, at most %2.</source>
        <translation>分量必须是 1 到 %1 之间的数，例如 1,2,5-8，最多 %2 个。</translation>
    </message>
    <message>
        <source>Queries of head %1: d_k = %2.</source>
        <translation>头 %1 的查询向量：d_k = %2。</translation>
    </message>
    <message>
        <source>Keys of head %1: d_k = %2.</source>
        <translation>头 %1 的键向量：d_k = %2。</translation>
    </message>
    <message>
        <source>Values of head %1: d_v = %2.</source>
        <translation>头 %1 的值向量：d_v = %2。</translation>
    </message>
    <message>
        <source>Drag a slider to set one component of a projected vector; ×2 doubles the whole vector; Reset removes the edit.</source>
        <translation>拖动滑块设置投影后向量的一个分量；×2 把整个向量乘以 2；“重置”移除编辑。</translation>
    </message>
    <message>
        <source>Drag %1 of %2</source>
        <translation>拖动%2的%1</translation>
    </message>
    <message>
        <source>Token</source>
        <translation>词</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%2 的 %1</translation>
    </message>
    <message>
        <source>×2</source>
        <translation>×2</translation>
    </message>
    <message>
        <source>Double the whole vector of %1</source>
        <translation>把%1的整个向量乘以 2</translation>
    </message>
    <message>
        <source>Reset</source>
        <translation>重置</translation>
    </message>
    <message>
        <source>Remove the edit: back to the projected vector of %1</source>
        <translation>移除编辑：恢复%1的投影向量</translation>
    </message>
    <message>
        <source>Token %1</source>
        <translation>词 %1</translation>
    </message>
    <message>
        <source>×%1</source>
        <translation>×%1</translation>
    </message>
    <message>
        <source>Edited: the vector is scaled by %1</source>
        <translation>已编辑：向量乘以 %1</translation>
    </message>
    <message>
        <source>Edited: some components are set by hand</source>
        <translation>已编辑：部分分量为手动设定</translation>
    </message>
    <message>
        <source>and some components are set by hand</source>
        <translation>并且部分分量为手动设定</translation>
    </message>
</context>
<context>
    <name>attnlab::WalkthroughActions</name>
    <message>
        <source>&amp;Walkthrough</source>
        <translation>分步演示(&amp;W)</translation>
    </message>
    <message>
        <source>Five-step &amp;walkthrough</source>
        <translation>五步分步演示(&amp;W)</translation>
    </message>
    <message>
        <source>Reveal the computation step by step: project, score, scale, softmax, weighted sum.</source>
        <translation>一步步展示计算过程：投影、打分、缩放、softmax、加权求和。</translation>
    </message>
</context>
<context>
    <name>attnlab::WalkthroughPanel</name>
    <message>
        <source>(%1 × %2)</source>
        <translation>(%1 × %2)</translation>
    </message>
    <message>
        <source>Projections</source>
        <translation>投影</translation>
    </message>
    <message>
        <source>Scores</source>
        <translation>打分</translation>
    </message>
    <message>
        <source>Scaling</source>
        <translation>缩放</translation>
    </message>
    <message>
        <source>Softmax</source>
        <translation>Softmax</translation>
    </message>
    <message>
        <source>Weighted sum</source>
        <translation>加权求和</translation>
    </message>
    <message>
        <source>Step %1 of %2</source>
        <translation>第 %1 步，共 %2 步</translation>
    </message>
    <message>
        <source>Nothing computed yet.</source>
        <translation>尚未计算。</translation>
    </message>
    <message>
        <source>Step 1 — Linear projections: three learnable matrices project every position at once: Q = X·W_Q %1 from the target X %2; K = Y·W_K %3 and V = Y·W_V %4 from the source Y %5.</source>
        <translation>第一步 — 线性变换：三个可学习的投影矩阵一次投影所有位置：由目标序列 X %2 得到 Q = X·W_Q %1；由源序列 Y %5 得到 K = Y·W_K %3 和 V = Y·W_V %4。</translation>
    </message>
    <message>
        <source>Step 1 — Linear projections: the token vectors stacked as X %1 are multiplied by three learnable matrices, giving Q = X·W_Q %2, K = X·W_K %3 and V = X·W_V %4 — every position in one matrix product.</source>
        <translation>第一步 — 线性变换：把词向量叠成矩阵 X %1，分别乘以三个可学习的投影矩阵，得到 Q = X·W_Q %2、K = X·W_K %3 和 V = X·W_V %4 — 一次矩阵乘法完成全部位置的投影。</translation>
    </message>
    <message>
        <source>Step 2 — Additive scores: S = vᵀ tanh(W_a q_i + U_a k_j) %1; entry (i, j) is how well query i matches key j.</source>
        <translation>第二步 — 加性打分：S = vᵀ tanh(W_a q_i + U_a k_j) %1；第 (i, j) 个元素表示查询 i 与键 j 的匹配程度。</translation>
    </message>
    <message>
        <source>Step 2 — Dot-product scores: S = QKᵀ, %1 · %2 → %3; entry (i, j) is how well query i matches key j.</source>
        <translation>第二步 — 点积打分：S = QKᵀ，%1 · %2 → %3；分数矩阵第 (i, j) 个元素表示查询 i 与键 j 的匹配程度。</translation>
    </message>
    <message>
        <source>Step 3 — Scaling: S / √d_k = S / √%1 %2 brings the variance of the scores back near one, so the softmax does not saturate.</source>
        <translation>第三步 — 缩放：S / √d_k = S / √%1 %2 把分数的方差拉回 1 附近，softmax 就不会进入饱和区。</translation>
    </message>
    <message>
        <source>Step 3 — Scaling by a temperature: S / τ with τ = %1 %2; a smaller τ sharpens the softmax, a larger one flattens it.</source>
        <translation>第三步 — 按温度缩放：S / τ，τ = %1 %2；τ 越小 softmax 越尖锐，越大越平缓。</translation>
    </message>
    <message>
        <source>Step 3 — No scaling in this session: S %1 goes to the softmax as it is; with d_k = %2 the scores can grow large and the softmax saturate.</source>
        <translation>第三步 — 本会话不缩放：S %1 原样送入 softmax；d_k = %2 时分数可能很大，softmax 会进入饱和区。</translation>
    </message>
    <message>
        <source>Step 4 — Softmax: each row of the scaled scores becomes non-negative weights that sum to one, P %1 — query i&apos;s attention budget.</source>
        <translation>第四步 — softmax 归一化：缩放后分数的每一行变成一组非负、和为一的注意力权重 P %1 — 即查询 i 的“注意力预算”。</translation>
    </message>
    <message>
        <source>The causal mask sets future positions to −∞ first, so their weight is 0.</source>
        <translation>因果掩码先把未来位置设为 −∞，所以它们的权重为 0。</translation>
    </message>
    <message>
        <source>Masked cells are set to −∞ first, so their weight is 0.</source>
        <translation>被掩码的单元先被设为 −∞，所以它们的权重为 0。</translation>
    </message>
    <message>
        <source>Step 5 — Weighted sum: O = PV, %1 · %2 → %3; each position&apos;s new representation is the sum of the value vectors weighted by its row of P.</source>
        <translation>第五步 — 加权求和：O = PV，%1 · %2 → %3；每个位置的新表示是值向量的加权和，权重就是 P 中它那一行。</translation>
    </message>
    <message>
        <source>◀ Back</source>
        <translation>◀ 上一步</translation>
    </message>
    <message>
        <source>Previous step (Left, Page Up)</source>
        <translation>上一步（左方向键、Page Up）</translation>
    </message>
    <message>
        <source>Next ▶</source>
        <translation>下一步 ▶</translation>
    </message>
    <message>
        <source>Next step (Right, Page Down)</source>
        <translation>下一步（右方向键、Page Down）</translation>
    </message>
    <message>
        <source>Presenter view</source>
        <translation>演示视图</translation>
    </message>
    <message>
        <source>Show the walkthrough full screen with large fonts (F5)</source>
        <translation>以大字体全屏显示分步演示（F5）</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation>%1 %2</translation>
    </message>
    <message>
        <source>Step %1: %2</source>
        <translation>第 %1 步：%2</translation>
    </message>
    <message>
        <source>X</source>
        <translation>X</translation>
    </message>
    <message>
        <source>Q</source>
        <translation>Q</translation>
    </message>
    <message>
        <source>K</source>
        <translation>K</translation>
    </message>
    <message>
        <source>V</source>
        <translation>V</translation>
    </message>
    <message>
        <source>S</source>
        <translation>S</translation>
    </message>
    <message>
        <source>scaled S</source>
        <translation>缩放后的 S</translation>
    </message>
    <message>
        <source>mask</source>
        <translation>掩码</translation>
    </message>
    <message>
        <source>P</source>
        <translation>P</translation>
    </message>
    <message>
        <source>O</source>
        <translation>O</translation>
    </message>
    <message>
        <source>The mask, applied before the softmax</source>
        <translation>掩码（在 softmax 之前使用）</translation>
    </message>
    <message>
        <source>Step 1&apos;s X, Q, K and V are hidden to leave room for this step (Home shows them).</source>
        <translation>为了给这一步留出空间，第 1 步的 X、Q、K、V 已收起（按 Home 键可查看）。</translation>
    </message>
    <message>
        <source>Steps 2 to 5 follow: the scores S, their scaling, the softmax with the mask into P, and the output O.</source>
        <translation>接下来是第 2 到 5 步：打分 S、缩放、带掩码的 softmax 得到 P，以及输出 O。</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <comment>two sentences, one after the other</comment>
        <translation>%1%2</translation>
    </message>
</context>
<context>
    <name>attnlab::WeightsPanel</name>
    <message>
        <source>Attention weights P — head %1, %2 (%3 × %4)</source>
        <translation>注意力权重 P — 头 %1，%2（%3 × %4）</translation>
    </message>
    <message>
        <source>query</source>
        <translation>查询</translation>
    </message>
    <message>
        <source>key</source>
        <translation>键</translation>
    </message>
    <message>
        <source>Click a cell to select its query row and key column. Ctrl+click masks or unmasks the cell. Arrow keys move the selection.</source>
        <translation>点击单元格选中它所在的查询行和键列。Ctrl+点击可掩码或取消掩码该单元。方向键移动选择。</translation>
    </message>
    <message>
        <source>before = %1, change = %2</source>
        <translation>之前 = %1，变化 = %2</translation>
    </message>
    <message>
        <source>colours: this map&apos;s range</source>
        <translation>颜色：本图的取值范围</translation>
    </message>
    <message>
        <source>colours: each row / its largest weight</source>
        <translation>颜色：每行除以该行最大权重</translation>
    </message>
    <message>
        <source>colours: log₁₀ weight on [−4, 0]</source>
        <translation>颜色：log₁₀ 权重，范围 [−4, 0]</translation>
    </message>
    <message>
        <source>The Difference map and the row inspector compare with these pinned weights. Ctrl+P or Attention ▸ Pin weights unpins them.</source>
        <translation>差值图和行检视器都与这些固定的权重比较。按 Ctrl+P 或选择“注意力 ▸ 固定权重”可取消固定。</translation>
    </message>
    <message>
        <source>Nothing pinned</source>
        <translation>尚未固定权重</translation>
    </message>
    <message>
        <source>Pin the weights (Attention ▸ Pin weights, Ctrl+P), then edit, for example ×2 on a key (Ctrl+D): this map shows how every row&apos;s weights moved (after − before).</source>
        <translation>先固定权重（注意力 ▸ 固定权重，Ctrl+P），再进行编辑，例如把某个键乘以 2（Ctrl+D）：这张图显示每一行的权重如何变化（之后 − 之前）。</translation>
    </message>
    <message>
        <source>No change since the pin</source>
        <translation>固定之后尚无变化</translation>
    </message>
    <message>
        <source>Edit now, for example ×2 on a key (Ctrl+D): this map then shows how every row&apos;s weights moved (after − before).</source>
        <translation>现在进行编辑，例如把某个键乘以 2（Ctrl+D）：这张图随即显示每一行的权重如何变化（之后 − 之前）。</translation>
    </message>
</context>
<context>
    <name>attnlab::WindowActions</name>
    <message>
        <source>Main</source>
        <translation>主工具栏</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>撤销(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>重做(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Attention</source>
        <translation>注意力(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;Pin weights</source>
        <translation>固定权重(&amp;P)</translation>
    </message>
    <message>
        <source>Remember the current weights; the Difference map and the row inspector then show how later edits move them.</source>
        <translation>记住当前的注意力权重；之后差值图和行检查器会显示后续编辑如何改变它们。</translation>
    </message>
    <message>
        <source>&amp;Clear pin</source>
        <translation>取消固定(&amp;C)</translation>
    </message>
    <message>
        <source>Double the selected &amp;key (×2)</source>
        <translation>将选中的键乘以 2(&amp;K)（×2）</translation>
    </message>
    <message>
        <source>The textbook exercise: multiply the selected key vector by 2 and watch every row&apos;s weights redistribute.</source>
        <translation>课本练习：把选中的键向量乘以 2，观察每一行的权重如何重新分配。</translation>
    </message>
    <message>
        <source>&amp;Reset the selected key</source>
        <translation>重置选中的键(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>Zoom &amp;in</source>
        <translation>放大(&amp;I)</translation>
    </message>
    <message>
        <source>Zoom &amp;out</source>
        <translation>缩小(&amp;O)</translation>
    </message>
    <message>
        <source>Reset &amp;view</source>
        <translation>重置视图(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Full screen</source>
        <translation>全屏(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Panels</source>
        <translation>面板(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;About AttnLab</source>
        <translation>关于 AttnLab(&amp;A)</translation>
    </message>
    <message>
        <source>About AttnLab</source>
        <translation>关于 AttnLab</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;AttnLab %1&lt;/b&gt;&lt;/p&gt;&lt;p&gt;Attention you can touch: edit the vectors, toggle the scaling and masks, and watch the softmax redistribute.&lt;/p&gt;&lt;p&gt;Attention weights are a microscope, not courtroom evidence.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;AttnLab %1&lt;/b&gt;&lt;/p&gt;&lt;p&gt;亲手触摸注意力：编辑向量，切换缩放和掩码，观察 softmax 如何重新分配权重。&lt;/p&gt;&lt;p&gt;注意力权重是显微镜，不是呈堂证供。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Weight &amp;colours</source>
        <translation>权重颜色(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Fixed [0, 1]</source>
        <translation>固定 [0, 1](&amp;F)</translation>
    </message>
    <message>
        <source>Every map on the same scale, so that maps can be compared</source>
        <translation>所有热力图用同一标尺，便于相互比较</translation>
    </message>
    <message>
        <source>This map&apos;s &amp;range</source>
        <translation>本图的范围(&amp;R)</translation>
    </message>
    <message>
        <source>From the map&apos;s smallest to its largest weight</source>
        <translation>从本图最小权重到最大权重</translation>
    </message>
    <message>
        <source>Each &amp;row by its largest weight</source>
        <translation>每行按其最大权重(&amp;R)</translation>
    </message>
    <message>
        <source>Each row divided by its own largest weight: long rows stay visible</source>
        <translation>每行除以该行自己的最大权重：长序列的行也看得清</translation>
    </message>
    <message>
        <source>&amp;Log scale</source>
        <translation>对数刻度(&amp;L)</translation>
    </message>
    <message>
        <source>log₁₀ of the weight on [−4, 0]: small weights stay visible</source>
        <translation>权重取 log₁₀，范围 [−4, 0]：很小的权重也看得见</translation>
    </message>
    <message>
        <source>Pinned the weights of head %1. Now edit, for example ×2 on a key (Ctrl+D): the Difference tab shows how they move. Ctrl+P again unpins.</source>
        <translation>已固定头 %1 的权重。现在进行编辑，例如把某个键乘以 2（Ctrl+D）：“差值”页显示权重如何变化。再按 Ctrl+P 取消固定。</translation>
    </message>
    <message>
        <source>Unpinned: the Difference tab has nothing to compare with.</source>
        <translation>已取消固定：“差值”页没有可比较的对象。</translation>
    </message>
    <message>
        <source>%1. Click (or Ctrl+P) to unpin.</source>
        <translation>%1。点击（或按 Ctrl+P）取消固定。</translation>
    </message>
    <message>
        <source>&amp;Undo %1</source>
        <translation>撤销“%1”(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Redo %1</source>
        <translation>重做“%1”(&amp;R)</translation>
    </message>
    <message>
        <source>Long map</source>
        <translation>长序列图</translation>
    </message>
</context>
<context>
    <name>attnlab::WorkingPanel</name>
    <message>
        <source>Key j</source>
        <translation>键 j</translation>
    </message>
    <message>
        <source>q·k_j</source>
        <translation>q·k_j</translation>
    </message>
    <message>
        <source>Score s_j</source>
        <translation>分数 s_j</translation>
    </message>
    <message>
        <source>Scaled s_j / d</source>
        <translation>缩放后 s_j / d</translation>
    </message>
    <message>
        <source>exp(s_j / d − m)</source>
        <translation>exp(s_j / d − m)</translation>
    </message>
    <message>
        <source>Weight</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>No result to show.</source>
        <translation>没有可显示的结果。</translation>
    </message>
    <message>
        <source>d = √d_k = √%1 = %2</source>
        <translation>d = √d_k = √%1 = %2</translation>
    </message>
    <message>
        <source>d = 1 (no scaling)</source>
        <translation>d = 1（不缩放）</translation>
    </message>
    <message>
        <source>d = τ = %1</source>
        <translation>d = τ = %1</translation>
    </message>
    <message>
        <source>Row %1 (%2): q = %3.  %4.  m = %5 is the shift the softmax subtracts (the row&apos;s largest scaled score), so that exp never overflows.</source>
        <translation>第 %1 行（%2）：q = %3。%4。m = %5 是 softmax 减去的平移量（这一行最大的缩放后分数），使 exp 永远不会溢出。</translation>
    </message>
    <message>
        <source>k = %1</source>
        <translation>k = %1</translation>
    </message>
    <message>
        <source>masked</source>
        <translation>已掩码</translation>
    </message>
    <message>
        <source>Σ</source>
        <translation>Σ</translation>
    </message>
    <message>
        <source>Showing the first %1 of %2 keys.</source>
        <translation>显示 %2 个键中的前 %1 个。</translation>
    </message>
    <message>
        <source>weight_j = exp(s_j / d − m) / Σ: every weight is its exp divided by the sum, so the weights are positive and add up to one.</source>
        <translation>weight_j = exp(s_j / d − m) / Σ：每个权重等于它的 exp 除以总和，所以权重都为正且和为一。</translation>
    </message>
    <message>
        <source>vᵀ tanh(W_a q + U_a k_j)</source>
        <translation>vᵀ tanh(W_a q + U_a k_j)</translation>
    </message>
    <message>
        <source>(the additive scores are divided by d too, like dot products)</source>
        <translation>（加性分数同样除以 d，与点积一样）</translation>
    </message>
    <message>
        <source>Row %1 (%2): q = %3.  %4.  Every key is masked: the row&apos;s weights are all 0.</source>
        <translation>第 %1 行（%2）：q = %3。%4。所有键都被掩码：这一行的权重全为 0。</translation>
    </message>
    <message>
        <source>v · h, h = %1</source>
        <translation>v · h，h = %1</translation>
    </message>
    <message>
        <source>v · tanh(…) = %1</source>
        <translation>v · tanh(…) = %1</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <comment>two sentences</comment>
        <translation>%1%2</translation>
    </message>
    <message>
        <source>q and k are turned by their positions (RoPE, θ = %1).</source>
        <translation>q 和 k 已按各自的位置旋转（RoPE，θ = %1）。</translation>
    </message>
</context>
<context>
    <name>attnlab::WritingLessonLauncher</name>
    <message>
        <source>Write at T = %1</source>
        <translation>在 T = %1 下续写</translation>
    </message>
    <message numerus="yes">
        <source>The Tang poem model writes %n character(s) after %1 at temperature %2, seed %3</source>
        <translation>
            <numerusform>唐诗模型在“%1”之后以温度 %2、种子 %3 续写 %n 个字</numerusform>
        </translation>
    </message>
    <message>
        <source>Let the letters model write</source>
        <translation>让字母模型写</translation>
    </message>
    <message numerus="yes">
        <source>It writes %n letter(s) after %1, always the most probable</source>
        <translation>
            <numerusform>在“%1”之后写出 %n 个字母，每次都取最可能的那个</numerusform>
        </translation>
    </message>
    <message>
        <source>Switch off its strongest induction head</source>
        <translation>关掉它最强的归纳头</translation>
    </message>
    <message>
        <source>Switches off the head the detectors score highest as an induction head; what it wrote is written again without it (Ctrl+Z in the model window undoes it)</source>
        <translation>关掉检测器评为最强归纳头的那个头；它写出的内容在没有这个头的情况下重写一遍（在模型窗口中按 Ctrl+Z 撤销）</translation>
    </message>
    <message>
        <source>Switch off all its induction heads</source>
        <translation>关掉它所有的归纳头</translation>
    </message>
    <message>
        <source>Switches off every head whose induction score reaches %1; what it wrote is written again without them</source>
        <translation>关掉归纳分数达到 %1 的每个头；它写出的内容在没有这些头的情况下重写一遍</translation>
    </message>
</context>
<context>
    <name>attnlab::cli</name>
    <message>
        <source>Usage: attnlab [FILE]
  Opens the window, optionally with a session file (NAME.attnlab.json).

</source>
        <translation>用法：attnlab [FILE]
  打开窗口，可同时打开一个会话文件（NAME.attnlab.json）。

</translation>
    </message>
    <message>
        <source>Usage: attnlab lessons
  Lists the built-in lessons: one per line, the id and the title.

</source>
        <translation>用法：attnlab lessons
  列出内置课程：每行一个，包括编号和标题。

</translation>
    </message>
    <message>
        <source>unknown command &quot;%1&quot;</source>
        <translation>未知命令“%1”</translation>
    </message>
    <message>
        <source>unexpected argument &quot;%1&quot;</source>
        <translation>多余的参数“%1”</translation>
    </message>
    <message>
        <source>give exactly one of --session FILE and --lesson ID</source>
        <translation>--session FILE 和 --lesson ID 必须且只能给出一个</translation>
    </message>
    <message>
        <source>no lesson named %1</source>
        <translation>没有名为“%1”的课程</translation>
    </message>
    <message>
        <source>unknown stage &quot;%1&quot;</source>
        <translation>未知的步骤“%1”</translation>
    </message>
    <message>
        <source>--head takes a head number from 1, or all</source>
        <translation>--head 需要从 1 开始的头编号，或 all</translation>
    </message>
    <message>
        <source>render needs -o OUT</source>
        <translation>render 需要 -o OUT</translation>
    </message>
    <message>
        <source>%1: the output must end in .png, .svg or .pdf</source>
        <translation>%1：输出文件必须以 .png、.svg 或 .pdf 结尾</translation>
    </message>
    <message>
        <source>--width takes a whole number from 64 to 10000</source>
        <translation>--width 需要 64 到 10000 之间的整数</translation>
    </message>
    <message>
        <source>--height takes a whole number from 64 to 10000</source>
        <translation>--height 需要 64 到 10000 之间的整数</translation>
    </message>
    <message>
        <source>--scale takes a number from 0.25 to 8</source>
        <translation>--scale 需要 0.25 到 8 之间的数</translation>
    </message>
    <message>
        <source>--range takes LO,HI with LO &lt; HI, or auto</source>
        <translation>--range 需要 LO,HI（LO &lt; HI），或 auto</translation>
    </message>
    <message>
        <source>there is no head %1: %2 has %3 head(s)</source>
        <translation>没有头 %1：%2 只有 %3 个头</translation>
    </message>
    <message>
        <source>before = the session without its vector edits</source>
        <translation>之前 = 去掉向量编辑的同一会话</translation>
    </message>
    <message>
        <source>the image would have more than 400 million pixels</source>
        <translation>图片将超过 4 亿像素</translation>
    </message>
    <message>
        <source>%1: the output must end in .json or .csv</source>
        <translation>%1：输出文件必须以 .json 或 .csv 结尾</translation>
    </message>
    <message>
        <source>could not write to the standard output</source>
        <translation>无法写入标准输出</translation>
    </message>
    <message>
        <source>  --edit ROLE,head=H,index=I,scale=S[,component=C,value=X]
            edits one projected vector, as the Keys / Queries / Values panels do:
            ROLE is key, query or value; head, index (the token) and component
            count from 1; scale multiplies the vector (and the session&apos;s own scale
            of it); component=C,value=X sets one component before the scale.
            Repeat for several vectors (each vector once), e.g. the textbook&apos;s
            exercise: --edit key,head=1,index=3,scale=2 --stage diff.
</source>
        <translation>  --edit ROLE,head=H,index=I,scale=S[,component=C,value=X]
            编辑一个投影后的向量，与“键 / 查询 / 值”面板相同：
            ROLE 为 key、query 或 value；head、index（词元）和 component
            都从 1 计数；scale 把向量乘以该倍数（与会话自身对它的缩放相乘）；
            component=C,value=X 在缩放之前设置一个分量。
            可重复以编辑多个向量（每个向量一次），例如教材的练习：
            --edit key,head=1,index=3,scale=2 --stage diff。
</translation>
    </message>
    <message>
        <source>Usage: attnlab render (--session FILE | --lesson ID) [--stage STAGE]
                      [--head N|all] -o OUT.png|OUT.svg|OUT.pdf
                      [--width W] [--height H] [--scale S] [--range LO,HI|auto]
                      [--aspect square|free] [--edit EDIT]...
  Draws one figure: title, token labels, colour bar and a caption naming the
  head and mode. SVG and PDF are vectors (cells are rectangles, text is text;
  a map of over 256 x 256 cells has its cells as one pooled image).
  --stage   %1 (default weights).
            diff: the weights after minus before the vector edits (the
            session&apos;s and --edit&apos;s; before = the session with no edits); a
            session without edits needs an --edit. pipeline: the whole strip.
  --head    head number from 1 (default 1), or all: one map per head.
  --width, --height  size in pixels (PNG, SVG) or points (PDF); a default
            fits the figure. --scale  PNG pixels per unit (2 or 3 for print).
  --range   a fixed colour range for every map, e.g. 0,1, so that several
            exports compare; auto: weights on their own range (default:
            weights on [0, 1], other matrices on their own range).
  --aspect  square: every cell as wide as high (default); free: the cells
            fill the figure.
%2
</source>
        <translation>用法：attnlab render (--session FILE | --lesson ID) [--stage STAGE]
                      [--head N|all] -o OUT.png|OUT.svg|OUT.pdf
                      [--width W] [--height H] [--scale S] [--range LO,HI|auto]
                      [--aspect square|free] [--edit EDIT]...
  绘制一张图：标题、词标签、色标，以及注明头和模式的图注。
  SVG 和 PDF 为矢量图（单元格是矩形，文字是文字；
  超过 256 × 256 个单元格的图，其单元格为一张汇聚后的图片）。
  --stage   %1（默认 weights）。
            diff：向量编辑（会话自身的和 --edit 的）之后减去之前的权重
            （之前 = 去掉所有编辑的同一会话）；没有编辑的会话需要 --edit。
            pipeline：整条流水线。
  --head    头的编号，从 1 开始（默认 1），或 all：每个头一张热图。
  --width, --height  尺寸，单位为像素（PNG、SVG）或点（PDF）；
            默认尺寸正好容纳整张图。--scale  每单位的 PNG 像素数（打印用 2 或 3）。
  --range   所有热图使用同一固定色标范围，例如 0,1，便于比较多次导出；
            auto：权重使用各自的范围（默认：权重用 [0, 1]，
            其他矩阵用各自的范围）。
  --aspect  square：每个单元格宽高相等（默认）；free：单元格铺满整张图。
%2
</translation>
    </message>
    <message>
        <source>  --edit    as for render.

</source>
        <translation>  --edit    与 render 相同。

</translation>
    </message>
    <message>
        <source>--aspect takes square or free, not &quot;%1&quot;</source>
        <translation>--aspect 只接受 square 或 free，而不是“%1”</translation>
    </message>
    <message>
        <source>%1 has no vector edits, so there is no difference to draw: add one, e.g. --edit key,head=1,index=3,scale=2 (see attnlab render --help)</source>
        <translation>%1 没有向量编辑，因此没有差异可画：请添加一个，例如 --edit key,head=1,index=3,scale=2（见 attnlab render --help）</translation>
    </message>
    <message>
        <source>attnlab: note: the edits do not change the weights of head %1 (value edits change only the output); its difference map is all zero
</source>
        <translation>attnlab：注意：这些编辑不改变头 %1 的权重（值的编辑只改变输出）；它的差异图全为零
</translation>
    </message>
    <message>
        <source>--edit %1: %2</source>
        <translation>--edit %1：%2</translation>
    </message>
    <message>
        <source>the role must be key, query or value, not &quot;%1&quot;</source>
        <translation>角色必须是 key、query 或 value，而不是“%1”</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not NAME=VALUE</source>
        <translation>“%1”不是“名称=值”的形式</translation>
    </message>
    <message>
        <source>%1 is given twice</source>
        <translation>%1 给了两次</translation>
    </message>
    <message>
        <source>unknown field &quot;%1&quot; (head, index, scale, component, value)</source>
        <translation>未知字段“%1”（可用 head、index、scale、component、value）</translation>
    </message>
    <message>
        <source>%1 takes a whole number from 1, not &quot;%2&quot;</source>
        <translation>%1 需要从 1 起的整数，而不是“%2”</translation>
    </message>
    <message>
        <source>%1 takes a finite number, not &quot;%2&quot;</source>
        <translation>%1 需要一个有限的数，而不是“%2”</translation>
    </message>
    <message>
        <source>head=H and index=I are needed</source>
        <translation>需要 head=H 和 index=I</translation>
    </message>
    <message>
        <source>component=C and value=X go together</source>
        <translation>component=C 和 value=X 必须一起给出</translation>
    </message>
    <message>
        <source>nothing to change: give scale=S or component=C,value=X</source>
        <translation>没有要改的内容：请给出 scale=S 或 component=C,value=X</translation>
    </message>
    <message>
        <source>--edit: %1 %2 of head %3 is given twice (%4 and %5); give each vector once</source>
        <translation>--edit：头 %3 的 %1 %2 给了两次（%4 和 %5）；每个向量只能给一次</translation>
    </message>
    <message>
        <source>there is no head %1: the session has %2 head(s)</source>
        <translation>没有头 %1：会话只有 %2 个头</translation>
    </message>
    <message>
        <source>there is no %1 %2: the session has %3</source>
        <translation>没有 %1 %2：会话只有 %3 个</translation>
    </message>
    <message>
        <source>there is no component %1: the vectors have %2</source>
        <translation>没有分量 %1：向量只有 %2 个分量</translation>
    </message>
    <message>
        <source>--%1 must be a whole number from 1 to %2</source>
        <translation>--%1 必须是 1 到 %2 之间的整数</translation>
    </message>
    <message>
        <source>--model DIR and --text TEXT are needed</source>
        <translation>需要 --model 目录与 --text 文本</translation>
    </message>
    <message>
        <source>%1: the output must end in .json, .png, .svg or .pdf</source>
        <translation>%1：输出文件须以 .json、.png、.svg 或 .pdf 结尾</translation>
    </message>
    <message>
        <source>Edits: %1</source>
        <translation>编辑：%1</translation>
    </message>
    <message>
        <source>Position %1 (&quot;%2&quot;): token, before, after, change</source>
        <translation>位置 %1（“%2”）：词元、之前、之后、变化</translation>
    </message>
    <message>
        <source>Largest change of a weight, per layer and head:</source>
        <translation>每一层、每个头中权重的最大变化：</translation>
    </message>
    <message>
        <source>  layer %1: %2</source>
        <translation>  第 %1 层：%2</translation>
    </message>
    <message>
        <source>--%1 %2: &quot;%3&quot; is not NAME=VALUE</source>
        <translation>--%1 %2：“%3”不是“名称=值”的形式</translation>
    </message>
    <message>
        <source>--%1 %2: %3 is given twice</source>
        <translation>--%1 %2：%3 给了两次</translation>
    </message>
    <message>
        <source>--%1 %2: %3 takes a whole number from 1</source>
        <translation>--%1 %2：%3 需要一个从 1 开始的整数</translation>
    </message>
    <message>
        <source>--%1 %2: unknown field &quot;%3&quot; (%4)</source>
        <translation>--%1 %2：未知字段“%3”（可用：%4）</translation>
    </message>
    <message>
        <source>--edit %1: the role must be key, query or value, not &quot;%2&quot;</source>
        <translation>--edit %1：角色必须是 key、query 或 value，而不是“%2”</translation>
    </message>
    <message>
        <source>--edit %1: scale=S (a finite number) is needed</source>
        <translation>--edit %1：需要 scale=S（一个有限的数）</translation>
    </message>
    <message>
        <source>%1: a session file ends in .attnlab.json</source>
        <translation>%1：会话文件以 .attnlab.json 结尾</translation>
    </message>
    <message>
        <source>--max-output takes a size such as 800M or 4G, not %1</source>
        <translation>--max-output 需要一个大小，例如 800M 或 4G，而不是 %1</translation>
    </message>
    <message>
        <source>%1: %2 That is more than the limit of %3; give --max-output to allow it, or draw a figure with attnlab render.</source>
        <translation>%1：%2 这超过了上限（%3）；用 --max-output 允许它，或者用 attnlab render 画一张图。</translation>
    </message>
    <message>
        <source>%1: line %2: &quot;%3&quot; is not a number</source>
        <translation>%1：第 %2 行：“%3”不是数字</translation>
    </message>
    <message>
        <source>%1: line %2 has %3 cells, the first row %4</source>
        <translation>%1：第 %2 行有 %3 个单元格，而第一行有 %4 个</translation>
    </message>
    <message>
        <source>%1: holds no pattern</source>
        <translation>%1：不含任何模式</translation>
    </message>
    <message>
        <source>%1: has no head %2</source>
        <translation>%1：没有第 %2 个头</translation>
    </message>
    <message>
        <source>Usage: attnlab train (--session FILE | --lesson ID)
                     --task previous-token|match|coref|pattern:FILE --steps N
                     [--optimizer adam|sgd] [--lr X] [--shared] [--values]
                     [--seed N] [--head H] -o TRAINED.attnlab.json [--curve C.csv]
  Learns the session&apos;s W_Q and W_K by gradient descent so that head H (from 1,
  default 1) attends as the task asks, with the session&apos;s mode, scaling and
  scoring. previous-token: each token attends to the one before; match: to the
  tokens of the same feature; coref: the textbook&apos;s 它 to 动物 (累) or 街 (宽)
  (needs d_model &gt;= 6); pattern:FILE: the session&apos;s own tokens, to the pattern in
  FILE (CSV, one row per query) or to the weights of another session (.json).
  A generated task&apos;s sequences come from --seed (default 1): the run is the same
  on every machine. --shared: one projection for Q, K and V (the symmetric
  scores X W W^T X^T); --values: W_V too, so that the output copies the attended
  tokens. Defaults: adam, --lr 0.05 (sgd: 0.5). The trained session (for a
  generated task, on the task&apos;s first sequence) goes to -o; --curve writes
  step,loss (the loss before each step, then the final one).
</source>
        <translation>用法：attnlab train (--session FILE | --lesson ID)
                     --task previous-token|match|coref|pattern:FILE --steps N
                     [--optimizer adam|sgd] [--lr X] [--shared] [--values]
                     [--seed N] [--head H] -o TRAINED.attnlab.json [--curve C.csv]
  用梯度下降学习会话的 W_Q 和 W_K，使头 H（从 1 计，默认 1）按任务的要求分配
  注意力，沿用会话的模式、缩放和打分方式。previous-token：每个词元关注它前面的
  那个；match：关注特征相同的词元；coref：教材中的“它”关注“动物”（累）或“街”（宽）
  （要求 d_model &gt;= 6）；pattern:FILE：用会话自己的词元，目标为 FILE 中的模式
  （CSV，每个查询一行）或另一个会话（.json）的权重。
  生成任务的序列来自 --seed（默认 1）：在每台机器上的结果都相同。--shared：
  Q、K、V 共用一个投影（分数 X W W^T X^T 对称）；--values：同时训练 W_V，使输出
  复制被关注的词元。默认：adam，--lr 0.05（sgd：0.5）。训练后的会话（生成任务
  则取任务的第一个序列）写入 -o；--curve 写出 step,loss（每一步之前的损失，
  最后是最终损失）。
</translation>
    </message>
    <message>
        <source>--task is required</source>
        <translation>必须给出 --task</translation>
    </message>
    <message>
        <source>--steps is required</source>
        <translation>必须给出 --steps</translation>
    </message>
    <message>
        <source>-o TRAINED.attnlab.json is required</source>
        <translation>必须给出 -o TRAINED.attnlab.json</translation>
    </message>
    <message>
        <source>--task pattern:FILE needs a file</source>
        <translation>--task pattern:FILE 需要一个文件</translation>
    </message>
    <message>
        <source>--task &quot;%1&quot; is not previous-token, match, coref or pattern:FILE</source>
        <translation>--task “%1”不是 previous-token、match、coref 或 pattern:FILE</translation>
    </message>
    <message>
        <source>--steps must be a whole number from 1 to %1</source>
        <translation>--steps 必须是 1 到 %1 之间的整数</translation>
    </message>
    <message>
        <source>--optimizer must be adam or sgd</source>
        <translation>--optimizer 必须是 adam 或 sgd</translation>
    </message>
    <message>
        <source>--lr must be a number above 0</source>
        <translation>--lr 必须是大于 0 的数</translation>
    </message>
    <message>
        <source>--seed must be a whole number of 0 or more</source>
        <translation>--seed 必须是不小于 0 的整数</translation>
    </message>
    <message>
        <source>--head counts from 1</source>
        <translation>--head 从 1 开始计数</translation>
    </message>
    <message numerus="yes">
        <source>%1 has %n head(s); --head %2 does not exist</source>
        <translation>
            <numerusform>%1 有 %n 个头；--head %2 不存在</numerusform>
        </translation>
    </message>
    <message>
        <source>%1: the pattern is %2 x %3, the session&apos;s weights %4 x %5</source>
        <translation>%1：模式为 %2 × %3，而会话的权重为 %4 × %5</translation>
    </message>
    <message>
        <source>step %1: %2 (try a smaller --lr)</source>
        <translation>第 %1 步：%2（请尝试更小的 --lr）</translation>
    </message>
    <message>
        <source>%1, %2 steps of %3: loss %4 -&gt; %5
</source>
        <translation>%1，%3 训练 %2 步：损失 %4 -&gt; %5
</translation>
    </message>
    <message>
        <source>%1: %2 Open it in the window (attnlab %1), which keeps only the weights, in float.</source>
        <translation>%1：%2 请在窗口中打开它（attnlab %1），窗口只保留权重（float）。</translation>
    </message>
    <message>
        <source>Usage: attnlab compute (--session FILE | --lesson ID) [-o OUT.json|OUT.csv]
                       [--edit EDIT]... [--max-output SIZE]
  Every stage of every head. JSON (to stdout without -o): {&quot;tokens&quot;,
  &quot;heads&quot;: [{&quot;Q&quot;, &quot;K&quot;, &quot;V&quot;, &quot;scores&quot;, &quot;scaled&quot;, &quot;mask&quot;, &quot;weights&quot;,
  &quot;output&quot;}, ...], &quot;concat&quot;, &quot;output&quot; (through W_O), &quot;diagnostics&quot;: [per head:
  entropy, maxWeight, argmax (from 1, 0 = none), jacobianNorm, fullyMasked]};
  matrices as lists of rows, the mask as booleans, numbers exact (the
  shortest text that reads back as the same double, at most 17 digits).
  OUT.csv: one long table with the columns head,stage,row,col,row_token,
  col_token,value (rows, columns and heads from 1; head 0 holds concat and
  output; diagnostics have an empty col, argmax from 1, 0 = none).
  A run that would write more than 512 MiB is refused before it starts (exit
  4, with the size and the memory it needs); --max-output 4G allows more.
</source>
        <translation>用法：attnlab compute (--session FILE | --lesson ID) [-o OUT.json|OUT.csv]
                       [--edit EDIT]... [--max-output SIZE]
  输出每个头的每一步。JSON（不带 -o 时写到标准输出）：{&quot;tokens&quot;,
  &quot;heads&quot;: [{&quot;Q&quot;, &quot;K&quot;, &quot;V&quot;, &quot;scores&quot;, &quot;scaled&quot;, &quot;mask&quot;, &quot;weights&quot;,
  &quot;output&quot;}, ...], &quot;concat&quot;, &quot;output&quot;（经过 W_O）, &quot;diagnostics&quot;: [每个头：
  entropy, maxWeight, argmax（从 1 计数，0 = 无）, jacobianNorm, fullyMasked]}；
  矩阵写成行的列表，掩码写成布尔值，数值精确（能读回同一个 double 的
  最短文本，最多 17 位）。
  OUT.csv：一张长表，列为 head,stage,row,col,row_token,
  col_token,value（行、列和头从 1 计数；头 0 存放 concat 和
  output；diagnostics 的 col 为空，argmax 从 1 计数，0 = 无）。
  会写出超过 512 MiB 的运行在开始前就被拒绝（退出码 4，并说明大小和所需内存）；
  --max-output 4G 可以允许更多。
</translation>
    </message>
    <message>
        <source>attnlab --help | --version

Exit status: 0 success, 2 wrong usage, 3 bad input file,
4 an output that could not be written.
</source>
        <translation>attnlab --help | --version

退出状态：0 成功，2 用法错误，3 输入文件有误，
4 输出无法写入。
</translation>
    </message>
    <message>
        <source>%1: the same as %2; give each once</source>
        <translation>%1：与%2相同；每个只能给一次</translation>
    </message>
    <message>
        <source>--edit %1: scale=%2 is beyond the range of a float (at most %3 in size)</source>
        <translation>--edit %1：scale=%2 超出 float 的范围（绝对值最大为%3）</translation>
    </message>
    <message>
        <source>%1 overflows (%2: a value beyond the range of a float); give a smaller scale</source>
        <translation>%1 溢出（%2：有值超出 float 的范围）；请给一个更小的 scale</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>Usage: attnlab heads --model DIR|builtin:NAME [--m 32] [--count 16] [--seed K]
                     [-o scores.json]
  What kind of head each head is. The model reads --count sequences of m random
  tokens of its vocabulary followed by the same m tokens; for every layer and
  head, averaged over the sequences:
    previous-token  mean P[i, i-1] over i &gt;= 1
    duplicate-token mean P[i, i-m] over i &gt;= m (the earlier copy of the token)
    induction       mean P[i, i-m+1] over i &gt;= m (the token after that copy)
    first-token     mean P[i, 0] over i &gt;= 1 (an attention sink)
  Prints a table; -o writes {&quot;layers&quot;: [{&quot;heads&quot;: [{&quot;previous_token&quot;,
  &quot;duplicate_token&quot;, &quot;induction&quot;, &quot;first_token&quot;}]}]} (layers and heads in
  order, from 1 on screen). The same seed draws the same tokens.
</source>
        <translation>用法： attnlab heads --model DIR|builtin:NAME [--m 32] [--count 16] [--seed K]
                     [-o scores.json]
  每个头属于哪一类。模型读入 --count 条序列，每条是从它的词表中随机取的 m 个词元，
  后面再接同样的 m 个词元；对每一层的每个头，在这些序列上取平均：
    前一词元  i &gt;= 1 时 P[i, i-1] 的平均
    重复词元  i &gt;= m 时 P[i, i-m] 的平均（同一词元较早的那一份）
    归纳      i &gt;= m 时 P[i, i-m+1] 的平均（那一份之后的词元）
    首词元    i &gt;= 1 时 P[i, 0] 的平均（注意力汇聚）
  打印一张表；-o 写出 {&quot;layers&quot;: [{&quot;heads&quot;: [{&quot;previous_token&quot;,
  &quot;duplicate_token&quot;, &quot;induction&quot;, &quot;first_token&quot;}]}]}（层和头按顺序排列，屏幕上从 1
  开始数）。同样的种子取同样的词元。
</translation>
    </message>
    <message>
        <source>--model DIR is needed</source>
        <translation>需要 --model DIR</translation>
    </message>
    <message>
        <source>highest %1: layer %2 head %3 (%4)
</source>
        <translation>%1 最高：第 %2 层第 %3 个头（%4）
</translation>
    </message>
    <message>
        <source>Usage: attnlab models
  Lists the trained models built into AttnLab: one per line, the name to give as
  --model builtin:NAME (to attnlab model and attnlab heads), its title, and the
  command that trained it.
</source>
        <translation>用法：attnlab models
  列出 AttnLab 内置的训练好的模型：每行一个，给出作为 --model builtin:NAME（用于
  attnlab model 和 attnlab heads）的名字、标题，以及训练它的命令。
</translation>
    </message>
    <message>
        <source>give one of --task induction and --corpus FILE</source>
        <translation>请给出 --task induction 和 --corpus FILE 中的一个</translation>
    </message>
    <message>
        <source>-o DIR is required</source>
        <translation>需要 -o DIR</translation>
    </message>
    <message>
        <source>step %1/%2  loss %3</source>
        <translation>第 %1/%2 步，损失 %3</translation>
    </message>
    <message>
        <source>  copy accuracy %1</source>
        <translation>  复制准确率 %1</translation>
    </message>
    <message>
        <source>  induction %1 (layer %2 head %3)</source>
        <translation>  归纳 %1（第 %2 层第 %3 个头）</translation>
    </message>
    <message>
        <source>  %1 s
</source>
        <translation>  %1 秒
</translation>
    </message>
    <message>
        <source>%1: %2 steps in %3 s, loss %4</source>
        <translation>%1：%2 步，用时 %3 秒，损失 %4</translation>
    </message>
    <message>
        <source>, copy accuracy %1</source>
        <translation>，复制准确率 %1</translation>
    </message>
    <message>
        <source>Usage: attnlab train-model (--task induction | --corpus FILE) [--layers L]
                           [--heads H] [--d-model D] [--context N]
                           [--attention-only] [--steps S] [--batch B] [--lr X]
                           [--seed K] [--threads n] -o DIR [--curve C.csv]
                           [--init-std X] [--warmup S] [--final-lr F]
                           [--measure-every S] [--stop-after S]
  Trains a whole GPT-2 (token and position embeddings, pre-LN blocks of causal
  attention and, without --attention-only, an MLP; tied unembedding) by AdamW on
  next-token prediction, and writes a Hugging Face GPT-2 folder: config.json,
  model.safetensors, vocab.json, merges.txt and training.json (the command, the
  seed, the loss of every step, and every S steps the copy accuracy and every
  head&apos;s scores). The folder opens in the model window and in attnlab model.
  induction: random lowercase letters with repeats of varying length and place;
  copy accuracy is measured on sequences of N letters in which a segment of 8
  to 3N/8 letters is repeated right after itself.
  --corpus FILE: any UTF-8 text, one token per distinct character.
  Defaults: --layers 2 --heads 4 --d-model 64 --context 64 --steps %1
  --batch 32 --lr %2 --seed 1 --threads 1 --init-std %3 (weights drawn from
  N(0, X^2)) --warmup %4 (steps of linear warm-up) --final-lr %5 (the cosine
  decay&apos;s floor, a fraction of --lr; 1: constant) --measure-every %6.
  The same command gives the same model, bit for bit, on one machine.
  --stop-after S: stop after step S of the same run (its schedule unchanged),
  to check a recorded run&apos;s first steps.
  --curve writes step,loss,copy_accuracy.
</source>
        <translation>用法： attnlab train-model (--task induction | --corpus FILE) [--layers L]
                           [--heads H] [--d-model D] [--context N]
                           [--attention-only] [--steps S] [--batch B] [--lr X]
                           [--seed K] [--threads n] -o DIR [--curve C.csv]
                           [--init-std X] [--warmup S] [--final-lr F]
                           [--measure-every S] [--stop-after S]
  训练一个完整的 GPT-2（词元和位置嵌入、前置 LayerNorm 的因果注意力块，不加
  --attention-only 时还有 MLP；输出层与嵌入共享），用 AdamW 做下一词元预测，并写出
  一个 Hugging Face GPT-2 文件夹：config.json、model.safetensors、vocab.json、
  merges.txt 和 training.json（命令、种子、每一步的损失，以及每 S 步测一次的复制
  准确率和每个头的分数）。这个文件夹可以在模型窗口和 attnlab model 中打开。
  induction：随机小写字母，其中有长度和位置都不固定的重复；复制准确率在 N 个字母
  的序列上测量，其中一段 8 到 3N/8 个字母紧接着重复一遍。
  --corpus FILE：任意 UTF-8 文本，每个不同的字符是一个词元。
  默认值：--layers 2 --heads 4 --d-model 64 --context 64 --steps %1
  --batch 32 --lr %2 --seed 1 --threads 1 --init-std %3（权重取自
  N(0, X^2)）--warmup %4（线性预热的步数）--final-lr %5（余弦衰减的下限，
  --lr 的几分之几；1：不衰减）--measure-every %6。
  同一条命令在同一台机器上得到逐位相同的模型。
  --stop-after S：同一次训练在第 S 步后停下（学习率安排不变），用来核对记录下的
  训练的前几步。
  --curve 写出 step,loss,copy_accuracy。
</translation>
    </message>
    <message>
        <source>%1 is not valid UTF-8 at byte %2</source>
        <translation>%1 不是有效的 UTF-8（第 %2 个字节）</translation>
    </message>
    <message>
        <source>%1 has %2 characters; one window of the context needs %3</source>
        <translation>%1 只有 %2 个字符；一个上下文窗口需要 %3 个</translation>
    </message>
    <message>
        <source>%1 holds no text</source>
        <translation>%1 里没有文本</translation>
    </message>
    <message>
        <source> (after %1)</source>
        <translation>（在%1之后）</translation>
    </message>
    <message>
        <source>argument %1%2 is not valid UTF-8 at byte %3; AttnLab reads its arguments as UTF-8</source>
        <translation>参数 %1%2 在第 %3 个字节处不是有效的 UTF-8；AttnLab 按 UTF-8 读取参数</translation>
    </message>
    <message>
        <source>%1%2 is given an empty value</source>
        <translation>%1%2 的值为空</translation>
    </message>
    <message>
        <source>--%1 must be a whole number from %2 to %3, not &quot;%4&quot;</source>
        <translation>--%1 必须是 %2 到 %3 之间的整数，而不是“%4”</translation>
    </message>
    <message>
        <source>attnlab: note: not in the model&apos;s vocabulary, left out: %1
</source>
        <translation>attnlab：注意：不在模型的词表中，已略去：%1
</translation>
    </message>
    <message>
        <source>attnlab: note: read as the unknown token: %1
</source>
        <translation>attnlab：注意：读作未知词元：%1
</translation>
    </message>
    <message>
        <source>%1 tokens: the JSON of every head&apos;s map would be about %2, more than the limit of %3; give --max-output to allow it, or draw one head&apos;s map (-o OUT.png).</source>
        <translation>%1 个词元：所有头的注意力图的 JSON 大约有 %2，超过上限 %3；用 --max-output 允许它，或只画一个头的图（-o OUT.png）。</translation>
    </message>
    <message>
        <source>unknown option %1</source>
        <translation>未知选项 %1</translation>
    </message>
    <message>
        <source>%1 needs a value</source>
        <translation>%1 需要一个值</translation>
    </message>
    <message>
        <source>%1 takes no value</source>
        <translation>%1 不带值</translation>
    </message>
    <message>
        <source>%1 is given twice; give it once</source>
        <translation>%1 给了两次；请只给一次</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not an option</source>
        <translation>“%1”不是选项</translation>
    </message>
    <message>
        <source>%1 must be a whole number from %2 to %3, not &quot;%4&quot;</source>
        <translation>%1 必须是 %2 到 %3 之间的整数，而不是“%4”</translation>
    </message>
    <message>
        <source>%1 must be a number above %2 and at most %3, not &quot;%4&quot;</source>
        <translation>%1 必须是一个数：大于 %2，至多 %3；不能是“%4”</translation>
    </message>
    <message>
        <source>%1 is given an empty file name</source>
        <translation>%1 的文件名为空</translation>
    </message>
    <message>
        <source>  Ranges: %1.
  The induction task needs --context %2 or more. A corpus may be at most %3 MiB,
  a run may hold at most %4 MiB of memory and write a training.json of at most
  %5 MiB; beyond, it is refused before it starts, with its figures.
  -o DIR is written whole: a new or empty folder, or one that AttnLab wrote (it
  is replaced, and other files you put in it stay). The outputs are checked
  before the first step.
</source>
        <translation>  范围：%1。
  induction 任务需要 --context %2 或更大。语料最多 %3 MiB，一次训练最多占用
  %4 MiB 内存，写出的 training.json 最多 %5 MiB；超出的在开始前就被拒绝，
  并给出相应数字。
  -o DIR 整个写出：一个新的或空的文件夹，或 AttnLab 写出的文件夹（它会被替换，
  你放在里面的其他文件保留）。所有输出在第一步之前就已检查。
</translation>
    </message>
    <message>
        <source>Usage: attnlab model --model DIR --text TEXT [-o OUT.json|OUT.png|OUT.svg|OUT.pdf]
                     [--layer L] [--head H] [--edit ...] [--ablate ...]
                     [--session-out S.attnlab.json] [--max-output SIZE]
  Runs a GPT-2 or BERT checkpoint folder (config.json, model.safetensors and the
  tokenizer: vocab.json + merges.txt, or vocab.txt), or a model built into AttnLab
  (--model builtin:NAME, see attnlab models), on TEXT. JSON (to stdout without
  -o): {&quot;model&quot;: {&quot;type&quot;, &quot;layers&quot;, &quot;heads&quot;}, &quot;tokens&quot;, &quot;display&quot;, &quot;ids&quot;,
  &quot;layers&quot;: [{&quot;heads&quot;: [{&quot;weights&quot;}]}], &quot;predictions&quot;: [{&quot;position&quot; (from 1),
  &quot;top&quot;: [{&quot;token&quot;, &quot;display&quot;, &quot;id&quot;, &quot;p&quot;}]}]}: GPT-2 predicts the next token,
  BERT each [MASK]. &quot;display&quot; labels each token readably: where GPT-2 splits one
  character over several tokens, the first shows the character and the others ⋯.
  PNG, SVG or PDF: the map of one head (--layer and --head count from 1; default 1).
  --edit ROLE,layer=L,head=H,index=I,scale=S (ROLE key, query or value) scales one
  position&apos;s vector of a head; --ablate layer=L,head=H[,mean] sets a head&apos;s output to
  zero (or its mean over positions). Both repeat; layers, heads and positions count
  from 1. With edits: the predictions before and after (to stdout), or with -o the
  edited run&apos;s JSON plus &quot;before&quot;: {&quot;predictions&quot;, &quot;layers&quot;}.
  --session-out writes head --layer/--head as a workbench session (format version 2:
  the layer&apos;s attention input, the head&apos;s W_Q, W_K, W_V and biases, and where it came
  from); without -o nothing else is written.
  The JSON grows as the square of the text: one that would be larger than 512 MiB
  is refused before the run, with its size; --max-output SIZE (800M, 4G) allows it.
  What of the text the tokenizer cannot represent becomes the unknown token where the
  model has one, or is left out whole; either way stderr names it and the JSON lists
  it in &quot;dropped&quot;: [{&quot;text&quot;, &quot;byte&quot; (from 1), &quot;bytes&quot;, &quot;fate&quot;}].
Encoder-decoders (bart, marian, t5): TEXT is the source; --target TARGET is the
  decoder&apos;s text (its input: the start token, then TARGET&apos;s ids but the last); without
  it the model translates greedily. JSON: {&quot;model&quot;: {&quot;type&quot;, &quot;encoder_layers&quot;,
  &quot;decoder_layers&quot;, &quot;heads&quot;}, &quot;source&quot; and &quot;target&quot;: {&quot;tokens&quot;, &quot;display&quot;,
  &quot;ids&quot;}, &quot;encoder&quot;, &quot;decoder&quot;, &quot;cross&quot; (target x source): [{&quot;heads&quot;:
  [{&quot;weights&quot;}]}], &quot;predictions&quot;: one per target position}. Figures take
  --kind encoder|decoder|cross (default cross); --edit and --ablate take
  kind=encoder|decoder|cross (default decoder). A cross head&apos;s key and value positions
  count in the source, its query positions in the target.
</source>
        <translation>用法：attnlab model --model DIR --text TEXT [-o OUT.json|OUT.png|OUT.svg|OUT.pdf]
                     [--layer L] [--head H] [--edit ...] [--ablate ...]
                     [--session-out S.attnlab.json] [--max-output SIZE]
  在 TEXT 上运行一个 GPT-2 或 BERT 检查点文件夹（config.json、model.safetensors 和
  分词器：vocab.json + merges.txt，或 vocab.txt），或 AttnLab 内置的模型
  （--model builtin:NAME，见 attnlab models）。JSON（没有 -o 时写到标准输出）：
  {&quot;model&quot;: {&quot;type&quot;, &quot;layers&quot;, &quot;heads&quot;}, &quot;tokens&quot;, &quot;display&quot;, &quot;ids&quot;,
  &quot;layers&quot;: [{&quot;heads&quot;: [{&quot;weights&quot;}]}], &quot;predictions&quot;: [{&quot;position&quot;（从 1 计数）,
  &quot;top&quot;: [{&quot;token&quot;, &quot;display&quot;, &quot;id&quot;, &quot;p&quot;}]}]}：GPT-2 预测下一个词元，BERT 预测每个
  [MASK]。&quot;display&quot; 是每个词元易读的标签：GPT-2 把一个字符拆成几个词元时，第一个
  显示这个字符，其余显示 ⋯。PNG、SVG 或 PDF：一个头的注意力图（--layer 和 --head
  从 1 开始数；默认 1）。
  --edit ROLE,layer=L,head=H,index=I,scale=S（ROLE 为 key、query 或 value）把某个头
  在一个位置上的向量乘以 S；--ablate layer=L,head=H[,mean] 把一个头的输出置零（或换成
  它在各位置上的平均）。两者都可重复；层、头和位置从 1 开始数。有编辑时：输出编辑前后的
  预测（到标准输出），或用 -o 写出编辑后运行的 JSON，外加 &quot;before&quot;: {&quot;predictions&quot;, &quot;layers&quot;}。
  --session-out 把 --layer/--head 指定的头写成工作台会话（格式版本 2：该层注意力的输入、
  这个头的 W_Q、W_K、W_V 和偏置，以及它的来源）；没有 -o 时不写别的。
  JSON 随文本长度的平方增长：会大于 512 MiB 的在运行前就被拒绝，并给出大小；
  --max-output SIZE（800M、4G）可以允许它。
  分词器无法表示的文本，在模型有未知词元时读作未知词元，否则整段略去；两种情况
  都会在标准错误中指出，并在 JSON 的 &quot;dropped&quot; 中列出：
  [{&quot;text&quot;, &quot;byte&quot;（从 1 计数）, &quot;bytes&quot;, &quot;fate&quot;}]。
编码器-解码器（bart、marian、t5）：TEXT 是源文本；--target TARGET 是解码器的文本（它的
  输入：起始词元，然后是 TARGET 的 id，去掉最后一个）；不给它时由模型贪心翻译。JSON：
  {&quot;model&quot;: {&quot;type&quot;, &quot;encoder_layers&quot;, &quot;decoder_layers&quot;, &quot;heads&quot;}，&quot;source&quot; 和 &quot;target&quot;:
  {&quot;tokens&quot;, &quot;display&quot;, &quot;ids&quot;}，&quot;encoder&quot;、&quot;decoder&quot;、&quot;cross&quot;（目标 × 源）：[{&quot;heads&quot;:
  [{&quot;weights&quot;}]}]，&quot;predictions&quot;：每个目标位置一条}。图用 --kind encoder|decoder|cross 选择
  （默认 cross）；--edit 和 --ablate 接受 kind=encoder|decoder|cross（默认 decoder）。交叉注意力
  头的键和值的位置按源文本计数，查询的位置按目标文本计数。
</translation>
    </message>
    <message>
        <source>--%1 %2: kind must be encoder, decoder or cross, not &quot;%3&quot;</source>
        <translation>--%1 %2：kind 必须是 encoder、decoder 或 cross，而不是“%3”</translation>
    </message>
    <message>
        <source>--kind must be encoder, decoder or cross, not &quot;%1&quot;</source>
        <translation>--kind 必须是 encoder、decoder 或 cross，而不是“%1”</translation>
    </message>
    <message>
        <source>--target is empty; leave it out to have the model translate</source>
        <translation>--target 为空；不给它时由模型自己翻译</translation>
    </message>
    <message>
        <source>--max-output takes a size such as 800M or 4G</source>
        <translation>--max-output 需要一个大小，例如 800M 或 4G</translation>
    </message>
    <message>
        <source>--layer must be a whole number from 1 to %1</source>
        <translation>--layer 必须是 1 到 %1 之间的整数</translation>
    </message>
    <message>
        <source>Encoder self-attention</source>
        <translation>编码器自注意力</translation>
    </message>
    <message>
        <source>Decoder masked self-attention</source>
        <translation>解码器掩码自注意力</translation>
    </message>
    <message>
        <source>Cross-attention</source>
        <translation>交叉注意力</translation>
    </message>
    <message>
        <source>%1, layer %2, head %3</source>
        <translation>%1，第 %2 层，第 %3 个头</translation>
    </message>
    <message>
        <source>%1 is a %2 model, not an encoder-decoder (bart, marian, t5)</source>
        <translation>%1 是%2模型，不是编码器-解码器（bart、marian、t5）</translation>
    </message>
    <message>
        <source>--target: %1; it has no target text</source>
        <translation>--target：%1；它没有目标文本</translation>
    </message>
    <message>
        <source>--kind: %1; its heads are chosen with --layer and --head</source>
        <translation>--kind：%1；它的头用 --layer 和 --head 选择</translation>
    </message>
    <message>
        <source>--%1 %2: %3; leave kind= out</source>
        <translation>--%1 %2：%3；请去掉 kind=</translation>
    </message>
    <message>
        <source>the JSON of every map would be about %1, more than the limit of %2; give --max-output to allow it, or draw one map (-o OUT.png --kind K --layer L --head H).</source>
        <translation>所有注意力图的 JSON 大约有 %1，超过上限 %2；用 --max-output 允许它，或只画一张图（-o OUT.png --kind K --layer L --head H）。</translation>
    </message>
    <message>
        <source>--session-out writes a decoder-only or encoder model&apos;s head; an encoder-decoder&apos;s heads are not written as sessions</source>
        <translation>--session-out 写出的是纯解码器或纯编码器模型的头；编码器-解码器的头不能写成会话</translation>
    </message>
    <message>
        <source>--temperature takes a finite number of at least 0 (0 is greedy), not %1</source>
        <translation>--temperature 需要一个不小于 0 的有限数（0 即贪心），而不是 %1</translation>
    </message>
    <message>
        <source>--top-k takes a whole number of at least 0 (0 keeps every token), not %1</source>
        <translation>--top-k 需要一个不小于 0 的整数（0 保留全部词元），而不是 %1</translation>
    </message>
    <message>
        <source>--top-p takes a number above 0 and at most 1, not %1</source>
        <translation>--top-p 需要一个大于 0、不大于 1 的数，而不是 %1</translation>
    </message>
    <message>
        <source>--seed takes a whole number from 0 to %1, not %2</source>
        <translation>--seed 需要 0 到 %1 之间的整数，而不是 %2</translation>
    </message>
    <message>
        <source>--%1 takes a whole number from 1, not %2</source>
        <translation>--%1 需要从 1 起的整数，而不是 %2</translation>
    </message>
    <message>
        <source>--model DIR, --text TEXT and --max-new-tokens N are needed</source>
        <translation>需要 --model DIR、--text TEXT 和 --max-new-tokens N</translation>
    </message>
    <message>
        <source>--max-new-tokens takes a whole number of at least 1, not %1</source>
        <translation>--max-new-tokens 需要一个不小于 1 的整数，而不是 %1</translation>
    </message>
    <message>
        <source>the model has %1 layers of %2 heads: --layer %3 --head %4 is not one of them</source>
        <translation>模型有 %1 层，每层 %2 个头：--layer %3 --head %4 不在其中</translation>
    </message>
    <message>
        <source>Usage: attnlab generate --model DIR --text TEXT --max-new-tokens N
                        [--temperature T] [--top-k K] [--top-p P] [--seed S]
                        [--edit ...] [--ablate ...] [-o OUT.json|OUT.png|OUT.svg|OUT.pdf]
                        [--layer L] [--head H] [--max-output SIZE]
  A GPT-2 or Llama-family checkpoint (or builtin:NAME) writes N tokens after TEXT, one
  at a time through a key/value cache, stopping early after its end-of-text id (kept).
  An encoder-decoder (BART, Marian, T5) reads TEXT as its source and writes from its
  decoder_start_token_id, each cross-attention&apos;s keys and values made once.
  --temperature 0 (the default) is greedy: the most probable token. Otherwise the
  logits are divided by T, --top-k keeps the K most probable, --top-p the fewest most
  probable whose probabilities reach P, and one token is drawn with seed S (default
  0; the same seed gives the same text). The checkpoint&apos;s bad_words_ids are never
  written; its other generation settings are listed, not applied. --edit and --ablate
  as in attnlab model, applied at every token.
  JSON (to stdout without -o): {&quot;model&quot;, &quot;prompt&quot;: {&quot;ids&quot;, &quot;tokens&quot;, &quot;display&quot;},
  &quot;ids&quot;, &quot;tokens&quot;, &quot;display&quot;, &quot;text&quot; (the generated tokens), &quot;stopped&quot; (eos,
  max_new_tokens or positions), &quot;sampling&quot;, &quot;generation_config&quot;, &quot;steps&quot;: [{&quot;id&quot;,
  &quot;p&quot;, &quot;top&quot;: [{&quot;id&quot;, &quot;token&quot;, &quot;p&quot;}]}] (the model&apos;s own probabilities, at
  temperature 1 before any cut), &quot;layers&quot;: every head&apos;s map of the final text}.
  An encoder-decoder&apos;s JSON has &quot;source&quot; and &quot;target&quot; (the decoder&apos;s input) and
  &quot;encoder&quot;, &quot;decoder&quot; and &quot;cross&quot; maps in place of &quot;prompt&quot; and &quot;layers&quot;.
  PNG, SVG or PDF: head --head of layer --layer of the final text (from 1); an
  encoder-decoder&apos;s cross-attention head.
</source>
        <translation>用法：attnlab generate --model DIR --text TEXT --max-new-tokens N
                        [--temperature T] [--top-k K] [--top-p P] [--seed S]
                        [--edit ...] [--ablate ...] [-o OUT.json|OUT.png|OUT.svg|OUT.pdf]
                        [--layer L] [--head H] [--max-output SIZE]
  GPT-2 或 Llama 家族的检查点（或 builtin:NAME）在 TEXT 之后写出 N 个词元，借助
  键/值缓存一次一个；写出它的结束符（保留在结果中）时提前停止。
  编码器-解码器（BART、Marian、T5）把 TEXT 当作源文本，从 decoder_start_token_id
  开始写，每个交叉注意力的键和值只计算一次。
  --temperature 0（默认）为贪心：取最可能的词元。否则 logits 除以 T，--top-k 保留
  最可能的 K 个，--top-p 保留概率之和达到 P 的最少几个最可能的词元，然后用种子 S
  （默认 0；同一个种子给出同样的文本）抽取一个。检查点的 bad_words_ids 永不写出；
  其他生成设置只列出，不起作用。--edit 和 --ablate 与 attnlab model 相同，对每个
  词元都生效。
  JSON（没有 -o 时写到标准输出）：{&quot;model&quot;, &quot;prompt&quot;: {&quot;ids&quot;, &quot;tokens&quot;, &quot;display&quot;},
  &quot;ids&quot;, &quot;tokens&quot;, &quot;display&quot;, &quot;text&quot;（生成的词元）, &quot;stopped&quot;（eos、
  max_new_tokens 或 positions）, &quot;sampling&quot;, &quot;generation_config&quot;, &quot;steps&quot;: [{&quot;id&quot;,
  &quot;p&quot;, &quot;top&quot;: [{&quot;id&quot;, &quot;token&quot;, &quot;p&quot;}]}]（模型自己的概率：温度为 1、截断之前）,
  &quot;layers&quot;: 最终文本每个头的注意力图}。
  编码器-解码器的 JSON 用 &quot;source&quot; 和 &quot;target&quot;（解码器的输入）以及
  &quot;encoder&quot;、&quot;decoder&quot; 和 &quot;cross&quot; 三种注意力图代替 &quot;prompt&quot; 和 &quot;layers&quot;。
  PNG、SVG 或 PDF：最终文本第 --layer 层第 --head 个头的图（从 1 数起）；
  编码器-解码器画的是交叉注意力头。
</translation>
    </message>
    <message>
        <source>Cross-attention, layer %1, head %2</source>
        <translation>交叉注意力，第 %1 层，头 %2</translation>
    </message>
    <message>
        <source>the decoder has %1 layers of %2 cross-attention heads: --layer %3 --head %4 is not one of them</source>
        <translation>解码器有 %1 层，每层 %2 个交叉注意力头：--layer %3 --head %4 不在其中</translation>
    </message>
    <message>
        <source>the JSON of every map would be about %1, more than the limit of %2; give --max-output to allow it, or draw one cross-attention head (-o OUT.png).</source>
        <translation>所有注意力图的 JSON 约为 %1，超过上限 %2；用 --max-output 放宽上限，或只画一个交叉注意力头（-o OUT.png）。</translation>
    </message>
    <message>
        <source>best: layer %1 head %2 (%3); exact match of the greedy translations %4 (%5 held-out dates)
</source>
        <translation>最佳：第 %1 层第 %2 个头（%3）；贪心翻译的完全匹配率 %4（%5 个留出日期）
</translation>
    </message>
    <message>
        <source>--count must be a whole number from 1 to %1, not &quot;%2&quot;</source>
        <translation>--count 必须是 1 到 %1 之间的整数，而不是“%2”</translation>
    </message>
    <message>
        <source>--lr must be a number above 0 and at most 1, not &quot;%1&quot;</source>
        <translation>--lr 必须是大于 0、不大于 1 的数，而不是“%1”</translation>
    </message>
    <message>
        <source>--d-model %1 does not split into %2 heads</source>
        <translation>--d-model %1 不能均分给 %2 个头</translation>
    </message>
    <message>
        <source>step %1/%2  loss %3  accuracy %4 %5 %6  alignment %7 (layer %8 head %9)  %10 s
</source>
        <translation>第 %1/%2 步，损失 %3，准确率 %4 %5 %6，对齐度 %7（第 %8 层第 %9 个头），%10 秒
</translation>
    </message>
    <message>
        <source>%1: %2 steps in %3 s, loss %4, accuracy %5 %6 %7 (arabic chinese slashed), alignment %8 (layer %9 head %10)
</source>
        <translation>%1：%2 步，用时 %3 秒，损失 %4，准确率 %5 %6 %7（阿拉伯数字、汉字、斜线），对齐度 %8（第 %9 层第 %10 个头）
</translation>
    </message>
    <message>
        <source>--task &quot;%1&quot; is neither induction nor dates</source>
        <translation>--task “%1”既不是 induction 也不是 dates</translation>
    </message>
    <message>
        <source>Usage: attnlab train-model --task dates [--layers L] [--decoder-layers L]
                           [--heads H] [--d-model D] [--steps S] [--batch B]
                           [--lr X] [--seed K] [--threads n]
                           [--measure-every S] [--stop-after S] -o DIR
                           [--curve C.csv]
  Trains a Marian-layout encoder-decoder to translate Chinese dates (2026年12月4日,
  二〇二六年十二月四日, 2026/12/4) into English (December 4, 2026) and writes a
  Marian folder (config.json, model.safetensors, source.spm, target.spm,
  vocab.json, tokenizer_config.json, generation_config.json, training.json).
  Every S steps it measures the exact-match accuracy of greedy translations of
  held-out dates in each form (those whose year + month + day is divisible by
  10, never trained on) and every cross-attention head&apos;s alignment; after the
  last step, on 1000 dates per form.
  Defaults: --layers %1 --decoder-layers %2 --heads %3 --d-model %4 --steps %5
  --batch %6 --lr %7 --seed 1 --threads 1 --measure-every %8.
  The same command gives the same model, bit for bit, on one machine.
  --stop-after S: stop after step S of the same run (its schedule unchanged).
  --curve writes step,loss and, where measured, the three accuracies and the
  best head&apos;s alignment.
</source>
        <translation>用法：attnlab train-model --task dates [--layers L] [--decoder-layers L]
                           [--heads H] [--d-model D] [--steps S] [--batch B]
                           [--lr X] [--seed K] [--threads n]
                           [--measure-every S] [--stop-after S] -o DIR
                           [--curve C.csv]
  训练一个 Marian 结构的编码器-解码器，把中文日期（2026年12月4日、
  二〇二六年十二月四日、2026/12/4）翻译成英文（December 4, 2026），并写出一个
  Marian 文件夹（config.json、model.safetensors、source.spm、target.spm、
  vocab.json、tokenizer_config.json、generation_config.json、training.json）。
  每 S 步测量一次：每种写法的留出日期（年 + 月 + 日能被 10 整除的日期，从不用于
  训练）的贪心翻译完全匹配率，以及每个交叉注意力头的对齐度；最后一步之后在每种
  写法 1000 个日期上测量。
  默认：--layers %1 --decoder-layers %2 --heads %3 --d-model %4 --steps %5
  --batch %6 --lr %7 --seed 1 --threads 1 --measure-every %8。
  同一条命令在同一台机器上得到逐位相同的模型。
  --stop-after S：在同一次训练的第 S 步后停止（学习率计划不变）。
  --curve 写出 step,loss，以及测量过的步上的三个准确率和最佳头的对齐度。
</translation>
    </message>
    <message>
        <source>Usage: attnlab align --model DIR|builtin:NAME [--count N]
                     [--ablate kind=cross,layer=L,head=H[,mean]]... [-o scores.json]
  For a translator that attnlab train-model --task dates made: every
  cross-attention head&apos;s alignment over N held-out dates (default 200, forms in
  turn). A head is aligned on a target token of a field (month, day, year) when
  the row of the decoder position that predicts it, teacher forced, puts its
  largest weight on a source token of the same field; its alignment is the
  fraction of such tokens it is aligned on. Also the exact match of the model&apos;s
  greedy translations of the same dates. Prints a layers x heads table; -o writes
  {&quot;layers&quot;: [{&quot;heads&quot;: [{&quot;alignment&quot;}]}], &quot;best&quot;, &quot;accuracy&quot;, &quot;count&quot;}.
  --ablate switches a head off in every pass (as attnlab model does): how much
  of the translation it carries. Any other model is refused: the measure needs
  the task&apos;s field spans.
</source>
        <translation>用法：attnlab align --model DIR|builtin:NAME [--count N]
                     [--ablate kind=cross,layer=L,head=H[,mean]]... [-o scores.json]
  用于 attnlab train-model --task dates 训练出的翻译模型：在 N 个留出日期上（默认 200，
  三种写法轮流）计算每个交叉注意力头的对齐度。对目标中属于某个字段（月、日、年）的
  词元，若预测它的那个解码器位置的行（教师强制）把最大权重放在源文本同一字段的词元上，
  就说这个头在该词元上对齐；对齐度是它对齐的这类词元所占的比例。同时给出模型对这些
  日期的贪心翻译的完全匹配率。打印一张层 × 头的表；-o 写出
  {&quot;layers&quot;: [{&quot;heads&quot;: [{&quot;alignment&quot;}]}], &quot;best&quot;, &quot;accuracy&quot;, &quot;count&quot;}。
  --ablate 在每次前向计算中关掉一个头（与 attnlab model 相同）：看它承担了多少翻译。
  其他模型一律拒绝：这个度量需要该任务的字段范围。
</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>Restore unsaved work of a crashed run without asking.</source>
        <translation>不经询问，直接恢复上次崩溃时未保存的工作。</translation>
    </message>
    <message>
        <source>Open a built-in lesson (see attnlab lessons).</source>
        <translation>打开内置课程（见 attnlab lessons）。</translation>
    </message>
    <message>
        <source>A session file, or a model folder, to open.</source>
        <translation>要打开的会话文件或模型文件夹。</translation>
    </message>
    <message>
        <source>Start in the presenter view of a view: weights, difference, pipeline, heads, walkthrough (walkthrough:4 for step 4) or trainer; with a model folder: focus, grid or head-view.</source>
        <translation>启动后直接进入某个视图的演示视图：weights、difference、pipeline、heads、walkthrough（walkthrough:4 表示第 4 步）或 trainer；打开模型文件夹时：focus、grid 或 head-view。</translation>
    </message>
</context>
</TS>
