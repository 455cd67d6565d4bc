// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/model/torch_pickle.h"

#include <memory>
#include <unordered_map>
#include <utility>

namespace attn::model::detail {

namespace {

enum class Kind { None, Bool, Int, Float, Str, Tuple, List, Dict, Global, Storage, Tensor };

// One object the pickle built. Objects are owned by the machine's arena and refer to each
// other by plain pointers: a hostile pickle may make cycles, which then cost nothing.
struct Obj {
    Kind kind = Kind::None;
    std::int64_t i = 0;            // Int, Bool; Storage: its elements; Tensor: its offset
    std::string s;                 // Str; Global: "module.name"; Storage: its key
    std::string dtype;             // Storage
    std::vector<Obj*> items;       // Tuple, List; Dict: key, value, key, value, ...
    const Obj* storage = nullptr;  // Tensor
    std::vector<std::int64_t> shape, stride;
};

// A refusal on the way: carried out of the opcode handlers to run(), which returns it.
struct Refusal {
    attn::Status status;
};

// The storage types a state dict's tensors use, and the dtype each holds.
const char* storageDtype(const std::string& global)
{
    static const std::pair<const char*, const char*> kTypes[] = {
        {"torch.FloatStorage", "F32"},     {"torch.HalfStorage", "F16"},
        {"torch.BFloat16Storage", "BF16"}, {"torch.DoubleStorage", "F64"},
        {"torch.LongStorage", "I64"},      {"torch.IntStorage", "I32"},
        {"torch.ShortStorage", "I16"},     {"torch.CharStorage", "I8"},
        {"torch.ByteStorage", "U8"},       {"torch.BoolStorage", "BOOL"}};
    for (const auto& [name, dtype] : kTypes)
        if (global == name) return dtype;
    return nullptr;
}

bool allowedGlobal(const std::string& name)
{
    return name == "collections.OrderedDict" || name == "torch._utils._rebuild_tensor_v2" ||
           name == "torch._utils._rebuild_parameter" || storageDtype(name) != nullptr;
}

class Machine {
public:
    Machine(const unsigned char* bytes, std::uint64_t size, const std::string& path)
        : p_(bytes), size_(size), path_(path)
    {
    }

    const Obj* run()
    {
        while (true) {
            const std::uint64_t at = pos_;
            const unsigned char op = byte();
            if (op == '.') return pop();
            if (!stackOp(op) && !valueOp(op) && !containerOp(op) && !memoOp(op) && !callOp(op))
                fail("opcode", "opcode 0x" + hex(op) + " at byte " + std::to_string(at) +
                                   " is not one a state dict uses");
        }
    }

    [[noreturn]] void fail(const std::string& field, const std::string& detail) const
    {
        throw Refusal{attn::failure(attn::StatusCode::TorchArchive, path_, field, detail)};
    }

private:
    static std::string hex(unsigned v)
    {
        const char* digits = "0123456789abcdef";
        return {digits[(v >> 4) & 15], digits[v & 15]};
    }

    const unsigned char* take(std::uint64_t n)
    {
        if (n > size_ - pos_)
            fail("data.pkl", "ends inside an opcode at byte " + std::to_string(pos_));
        const unsigned char* at = p_ + pos_;
        pos_ += n;
        return at;
    }
    unsigned char byte() { return *take(1); }
    std::uint64_t le(int n)
    {
        const unsigned char* b = take(static_cast<std::uint64_t>(n));
        std::uint64_t v = 0;
        for (int k = n - 1; k >= 0; --k) v = (v << 8) | b[k];
        return v;
    }

    Obj* make(Kind kind)
    {
        if (arena_.size() >= kMaxPickleObjects)
            throw Refusal{attn::failure(
                attn::StatusCode::HeaderTooLarge, path_, "data.pkl",
                "builds more than " + std::to_string(kMaxPickleObjects) + " objects")};
        arena_.push_back(std::make_unique<Obj>());
        arena_.back()->kind = kind;
        return arena_.back().get();
    }
    Obj* makeInt(std::int64_t v)
    {
        Obj* o = make(Kind::Int);
        o->i = v;
        return o;
    }
    Obj* makeStr(std::uint64_t length)
    {
        const unsigned char* b = take(length);
        Obj* o = make(Kind::Str);
        o->s.assign(reinterpret_cast<const char*>(b), static_cast<std::size_t>(length));
        return o;
    }

    // DUP and MARK build no object, but grow the stack: bounded with the objects.
    void push(Obj* o)
    {
        grow();
        stack_.push_back(o);
    }
    void grow() const
    {
        if (stack_.size() + marks_.size() >= kMaxPickleObjects)
            throw Refusal{
                attn::failure(attn::StatusCode::HeaderTooLarge, path_, "data.pkl",
                              "a stack deeper than " + std::to_string(kMaxPickleObjects))};
    }
    Obj* pop()
    {
        if (stack_.size() <= floor()) fail("data.pkl", "takes from an empty stack");
        Obj* o = stack_.back();
        stack_.pop_back();
        return o;
    }
    Obj* top()
    {
        if (stack_.size() <= floor()) fail("data.pkl", "reads an empty stack");
        return stack_.back();
    }
    // Below the last mark the stack belongs to the caller of MARK.
    std::size_t floor() const { return marks_.empty() ? 0 : marks_.back(); }
    std::vector<Obj*> popMark()
    {
        if (marks_.empty()) fail("data.pkl", "closes a mark that was never set");
        const std::size_t from = marks_.back();
        marks_.pop_back();
        std::vector<Obj*> items(stack_.begin() + static_cast<std::ptrdiff_t>(from), stack_.end());
        stack_.resize(from);
        return items;
    }

    bool stackOp(unsigned char op)
    {
        switch (op) {
        case 0x80:  // PROTO
            if (byte() > 5) fail("data.pkl", "a pickle protocol above 5");
            return true;
        case 0x95: take(8); return true;  // FRAME: a hint for buffered readers
        case '(':
            grow();
            marks_.push_back(stack_.size());
            return true;
        case '0': pop(); return true;
        case '1': popMark(); return true;
        case '2': push(top()); return true;
        default: return false;
        }
    }

    bool valueOp(unsigned char op)
    {
        switch (op) {
        case 'N': push(make(Kind::None)); return true;
        case 0x88:
        case 0x89: {
            Obj* o = make(Kind::Bool);
            o->i = op == 0x88;
            push(o);
            return true;
        }
        case 'K': push(makeInt(static_cast<std::int64_t>(le(1)))); return true;
        case 'M': push(makeInt(static_cast<std::int64_t>(le(2)))); return true;
        case 'J': push(makeInt(static_cast<std::int32_t>(le(4)))); return true;
        case 0x8a: {  // LONG1: n little-endian two's-complement bytes
            const unsigned n = byte();
            if (n > 8) fail("data.pkl", "an integer of " + std::to_string(n) + " bytes");
            std::uint64_t v = n == 0 ? 0 : le(static_cast<int>(n));
            if (n > 0 && n < 8 && (v >> (8 * n - 1)) != 0) v |= ~std::uint64_t{0} << (8 * n);
            push(makeInt(static_cast<std::int64_t>(v)));
            return true;
        }
        case 'G':  // BINFLOAT: a state dict's metadata may hold one; its value is not needed
            take(8);
            push(make(Kind::Float));
            return true;
        case 'X': push(makeStr(le(4))); return true;   // BINUNICODE
        case 0x8c: push(makeStr(le(1))); return true;  // SHORT_BINUNICODE
        case 0x8d: push(makeStr(le(8))); return true;  // BINUNICODE8
        case 'U': push(makeStr(le(1))); return true;   // SHORT_BINSTRING
        case 'T': push(makeStr(le(4))); return true;   // BINSTRING
        case 'C': push(makeStr(le(1))); return true;   // SHORT_BINBYTES
        case 'B': push(makeStr(le(4))); return true;   // BINBYTES
        default: return false;
        }
    }

    Obj* tuple(std::vector<Obj*> items)
    {
        Obj* o = make(Kind::Tuple);
        o->items = std::move(items);
        return o;
    }

    Obj* expect(Obj* o, Kind kind, const char* what)
    {
        if (o->kind != kind) fail("data.pkl", std::string(what) + " on an object of another kind");
        return o;
    }

    bool containerOp(unsigned char op)
    {
        switch (op) {
        case ')': push(tuple({})); return true;
        case 't': push(tuple(popMark())); return true;
        case 0x85:
        case 0x86:
        case 0x87: {
            std::vector<Obj*> items(static_cast<std::size_t>(op - 0x84));
            for (auto it = items.rbegin(); it != items.rend(); ++it) *it = pop();
            push(tuple(std::move(items)));
            return true;
        }
        case ']': push(make(Kind::List)); return true;
        case '}': push(make(Kind::Dict)); return true;
        case 'a': {
            Obj* v = pop();
            expect(top(), Kind::List, "APPEND")->items.push_back(v);
            return true;
        }
        case 'e': {
            std::vector<Obj*> v = popMark();
            Obj* list = expect(top(), Kind::List, "APPENDS");
            list->items.insert(list->items.end(), v.begin(), v.end());
            return true;
        }
        case 's': {
            Obj* v = pop();
            Obj* k = pop();
            Obj* dict = expect(top(), Kind::Dict, "SETITEM");
            dict->items.push_back(k);
            dict->items.push_back(v);
            return true;
        }
        case 'u': {
            std::vector<Obj*> kv = popMark();
            if (kv.size() % 2 != 0) fail("data.pkl", "SETITEMS with a key and no value");
            Obj* dict = expect(top(), Kind::Dict, "SETITEMS");
            dict->items.insert(dict->items.end(), kv.begin(), kv.end());
            return true;
        }
        default: return false;
        }
    }

    bool memoOp(unsigned char op)
    {
        switch (op) {
        case 'q': memo_[le(1)] = top(); return true;
        case 'r': memo_[le(4)] = top(); return true;
        case 0x94: memo_[memo_.size()] = top(); return true;  // MEMOIZE
        case 'h':
        case 'j': {
            const std::uint64_t key = le(op == 'h' ? 1 : 4);
            const auto it = memo_.find(key);
            if (it == memo_.end())
                fail("data.pkl", "recalls memo " + std::to_string(key) + ", never stored");
            push(it->second);
            return true;
        }
        default: return false;
        }
    }

    Obj* global(std::string module, std::string name)
    {
        const std::string full = module + "." + name;
        if (!allowedGlobal(full))
            throw Refusal{attn::failure(
                attn::StatusCode::PickleGlobal, path_, full,
                "is not read: a state dict needs only tensors, storages and OrderedDict, and a "
                "pickle that names anything else could run code")};
        Obj* o = make(Kind::Global);
        o->s = full;
        return o;
    }

    std::string line()
    {
        std::string out;
        while (true) {
            const unsigned char c = byte();
            if (c == '\n') return out;
            if (out.size() > 256) fail("data.pkl", "a global's name over 256 bytes");
            out.push_back(static_cast<char>(c));
        }
    }

    bool callOp(unsigned char op);
    Obj* reduce(const Obj* callable, const Obj* args);
    Obj* persistent(const Obj* pid);
    std::vector<std::int64_t> ints(const Obj* o, const char* what);

    const unsigned char* p_;
    std::uint64_t size_;
    std::uint64_t pos_ = 0;
    const std::string& path_;
    std::vector<std::unique_ptr<Obj>> arena_;
    std::vector<Obj*> stack_;
    std::vector<std::size_t> marks_;
    std::unordered_map<std::uint64_t, Obj*> memo_;
};

bool Machine::callOp(unsigned char op)
{
    switch (op) {
    case 'c': {
        std::string module = line();
        push(global(std::move(module), line()));
        return true;
    }
    case 0x93: {  // STACK_GLOBAL
        Obj* name = expect(pop(), Kind::Str, "STACK_GLOBAL");
        Obj* module = expect(pop(), Kind::Str, "STACK_GLOBAL");
        push(global(module->s, name->s));
        return true;
    }
    case 'R': {
        Obj* args = pop();
        Obj* callable = pop();
        push(reduce(callable, args));
        return true;
    }
    case 'b': {  // BUILD: an OrderedDict's _metadata, or a parameter's state; neither matters
        pop();
        const Kind k = top()->kind;
        if (k != Kind::Dict && k != Kind::Tensor)
            fail("data.pkl", "BUILD on an object it cannot build");
        return true;
    }
    case 'Q': push(persistent(pop())); return true;
    default: return false;
    }
}

std::vector<std::int64_t> Machine::ints(const Obj* o, const char* what)
{
    if (o->kind != Kind::Tuple || o->items.size() > kMaxTensorRank)
        fail("data.pkl", std::string("a tensor's ") + what + " is not a tuple of at most " +
                             std::to_string(kMaxTensorRank) + " integers");
    std::vector<std::int64_t> out;
    for (const Obj* v : o->items) {
        if (v->kind != Kind::Int || v->i < 0)
            fail("data.pkl",
                 std::string("a tensor's ") + what + " holds a value that is not a size");
        out.push_back(v->i);
    }
    return out;
}

Obj* Machine::reduce(const Obj* callable, const Obj* args)
{
    if (callable->kind != Kind::Global || args->kind != Kind::Tuple)
        fail("data.pkl", "REDUCE on something that is not a function and its arguments");
    const std::vector<Obj*>& a = args->items;
    if (callable->s == "collections.OrderedDict") {
        if (!a.empty()) fail(callable->s, "called with arguments");
        return make(Kind::Dict);
    }
    if (callable->s == "torch._utils._rebuild_parameter") {
        if (a.empty() || a[0]->kind != Kind::Tensor) fail(callable->s, "without a tensor");
        return a[0];
    }
    if (callable->s != "torch._utils._rebuild_tensor_v2") fail(callable->s, "is not a function");
    if (a.size() < 4 || a[0]->kind != Kind::Storage || a[1]->kind != Kind::Int || a[1]->i < 0)
        fail(callable->s, "without a storage, an offset, a size and a stride");
    Obj* t = make(Kind::Tensor);
    t->storage = a[0];
    t->i = a[1]->i;
    t->shape = ints(a[2], "size");
    t->stride = ints(a[3], "stride");
    if (t->shape.size() != t->stride.size())
        fail(callable->s, "size and stride of different ranks");
    return t;
}

Obj* Machine::persistent(const Obj* pid)
{
    const std::vector<Obj*>& a = pid->items;
    if (pid->kind != Kind::Tuple || a.size() != 5 || a[0]->kind != Kind::Str ||
        a[0]->s != "storage" || a[1]->kind != Kind::Global || a[2]->kind != Kind::Str ||
        a[4]->kind != Kind::Int || a[4]->i < 0)
        fail("data.pkl", "a persistent id that is not ('storage', type, key, location, size)");
    const char* dtype = storageDtype(a[1]->s);
    if (dtype == nullptr) fail(a[1]->s, "is not a storage type");
    Obj* s = make(Kind::Storage);
    s->dtype = dtype;
    s->s = a[2]->s;
    s->i = a[4]->i;
    return s;
}

}  // namespace

attn::Status readStateDictPickle(const unsigned char* bytes, std::uint64_t size,
                                 const std::string& path, std::vector<PickledTensor>& tensors)
{
    tensors.clear();
    Machine machine(bytes, size, path);
    try {
        const Obj* dict = machine.run();
        if (dict->kind != Kind::Dict)
            machine.fail("data.pkl", "holds no dict of tensors at its top (a state dict is one)");
        std::unordered_map<std::string, std::size_t> seen;
        for (std::size_t k = 0; k + 1 < dict->items.size(); k += 2) {
            const Obj* key = dict->items[k];
            const Obj* value = dict->items[k + 1];
            if (key->kind != Kind::Str) machine.fail("data.pkl", "a key that is not a name");
            if (value->kind != Kind::Tensor)
                machine.fail(key->s,
                             "is not a tensor (a state dict holds only tensors; save "
                             "model.state_dict() itself)");
            PickledTensor t{key->s,   value->storage->dtype, value->storage->s, value->storage->i,
                            value->i, value->shape,          value->stride};
            const auto [it, fresh] = seen.emplace(key->s, tensors.size());
            if (fresh)
                tensors.push_back(std::move(t));
            else
                tensors[it->second] = std::move(t);  // as Python's dict: the last one holds
        }
        return {};
    } catch (const Refusal& r) {
        tensors.clear();
        return r.status;
    }
}

}  // namespace attn::model::detail
