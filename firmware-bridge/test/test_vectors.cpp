// Checks every entry of vectors/protocol-vectors.json, the shared source of truth that the
// TypeScript driver checks too. One test case per vector, named by its index and note.
#include <fstream>
#include <memory>
#include <set>
#include <sstream>

#include "frame_codec.h"
#include "harness.h"
#include "json.h"
#include "support.h"

using namespace tenace;

namespace {

json::Value object() {
    json::Value v;
    v.kind = json::Value::Kind::Object;
    return v;
}

void put(json::Value& o, const char* key, json::Value v) { o.object.emplace_back(key, std::move(v)); }

// The decoded-field names and shapes of PROTOCOL.md "Decoded fields".
json::Value decoded(const Frame& f) {
    json::Value o = object();
    put(o, "seq", json::num(f.seq));
    put(o, "type", json::str(name(f.type)));
    auto status = [&] { return json::str(std::string(f.status, f.statusLen)); };
    switch (f.type) {
        case MsgType::Hello:
        case MsgType::Identity:
            put(o, "fw", json::str(f.fw));
            put(o, "proto", json::num(f.proto));
            put(o, "readers", json::num(f.readers));
            put(o, "reset", json::str(name(f.reset)));
            if (f.type == MsgType::Identity) put(o, "uptimeS", json::num(f.uptimeS));
            put(o, "boot", json::num(f.boot));
            break;
        case MsgType::Cfg:
        case MsgType::Set:
            put(o, "pollMs", json::num(f.pollMs));
            put(o, "misses", json::num(f.misses));
            break;
        case MsgType::Hb: {
            put(o, "uptimeS", json::num(f.uptimeS));
            put(o, "status", status());
            std::vector<json::Value> tags;
            for (uint8_t i = 0; i < f.statusLen; ++i) tags.push_back(json::num(f.tags[i]));
            put(o, "tags", json::arr(tags));
            put(o, "boot", json::num(f.boot));
            break;
        }
        case MsgType::Arrive:
        case MsgType::Leave:
        case MsgType::Tag:
            put(o, "reader", json::num(f.reader));
            put(o, "uid", json::str(support::hex(f.uid)));
            break;
        case MsgType::Err:
            put(o, "kind", json::str(name(f.errKind)));
            if (f.errKind == ErrKind::Reader) {
                put(o, "reader", json::num(f.reader));
                put(o, "code", json::str(name(f.fault)));
            } else if (f.errKind == ErrKind::Overflow) {
                put(o, "dropped", json::num(f.dropped));
            } else {
                put(o, "code", json::str(name(f.code)));
            }
            break;
        case MsgType::Ack:
            put(o, "hseq", json::num(f.hseq));
            put(o, "cmd", json::str(name(f.cmd)));
            break;
        case MsgType::Nak:
            put(o, "hseq", json::num(f.hseq));
            put(o, "code", json::str(name(f.code)));
            break;
        case MsgType::Snap:
            put(o, "hseq", json::num(f.hseq));
            put(o, "total", json::num(f.total));
            break;
        case MsgType::SnapEnd:
            put(o, "hseq", json::num(f.hseq));
            put(o, "total", json::num(f.total));
            put(o, "status", status());
            break;
        case MsgType::Replay:
        case MsgType::ReplayEnd:
            put(o, "hseq", json::num(f.hseq));
            put(o, "count", json::num(f.count));
            break;
        case MsgType::Rec:
            put(o, "oseq", json::num(f.oseq));
            put(o, "kind", json::str(name(f.recKind)));
            put(o, "reader", json::num(f.reader));
            put(o, "uid", json::str(support::hex(f.uid)));
            break;
        case MsgType::Since:
            put(o, "boot", json::num(f.boot));
            put(o, "after", json::num(f.after));
            break;
        default:
            break;
    }
    return o;
}

void checkVector(const json::Value& v) {
    REQUIRE(v.isObject());
    const json::Value* line = v.get("line");
    const json::Value* valid = v.get("valid");
    const json::Value* note = v.get("note");
    REQUIRE(line != nullptr && line->isString());
    REQUIRE(valid != nullptr && valid->kind == json::Value::Kind::Bool);
    CHECK(note != nullptr && note->isString() && !note->string.empty());

    const std::string& text = line->string;
    const ParseResult r = parseLine(text.data(), text.size());
    if (valid->boolean) {
        const json::Value* frame = v.get("frame");
        REQUIRE(frame != nullptr && frame->isObject());
        CHECK(v.get("error") == nullptr);
        if (!r.ok()) th::fail(__FILE__, __LINE__, std::string("rejected with ") + name(r.error));
        REQUIRE(r.ok());
        const json::Value got = decoded(r.frame);
        if (got != *frame) th::fail(__FILE__, __LINE__, "decoded " + got.dump() + " expected " + frame->dump());
        // Encoding is canonical: the decoded frame encodes back to the very same bytes.
        char buf[kLineBufferSize];
        const size_t n = encodeFrame(r.frame, buf, sizeof buf);
        std::string expected = text;
        if (!expected.empty() && expected.back() == '\r') expected.pop_back();
        CHECK_EQ(std::string(buf, n), expected + "\n");
    } else {
        const json::Value* error = v.get("error");
        REQUIRE(error != nullptr && error->isString());
        CHECK(v.get("frame") == nullptr);
        CHECK_EQ(std::string(name(r.error)), error->string);
    }
}

void checkCoverage(const json::Value& all) {
    std::set<std::string> types, errors, resets, faults, kinds, naks, lineCodes, cmds;
    for (const json::Value& v : all.array) {
        const json::Value* valid = v.get("valid");
        if (valid == nullptr) continue;
        if (valid->boolean) {
            const json::Value* f = v.get("frame");
            if (f == nullptr) continue;
            const json::Value* t = f->get("type");
            if (t != nullptr) types.insert(t->string);
            if (const json::Value* x = f->get("reset")) resets.insert(x->string);
            if (const json::Value* x = f->get("cmd")) cmds.insert(x->string);
            const json::Value* k = f->get("kind");
            if (t != nullptr && t->string == "err" && k != nullptr) {
                kinds.insert(k->string);
                if (const json::Value* c = f->get("code")) {
                    (k->string == "reader" ? faults : lineCodes).insert(c->string);
                }
            }
            if (t != nullptr && t->string == "nak") naks.insert(f->get("code")->string);
        } else if (const json::Value* e = v.get("error")) {
            errors.insert(e->string);
        }
    }
    for (size_t i = 0; i < static_cast<size_t>(MsgType::Count); ++i) {
        const std::string n = name(static_cast<MsgType>(i));
        if (!types.count(n)) th::fail(__FILE__, __LINE__, "no valid vector of type " + n);
        if (isHostCommand(static_cast<MsgType>(i)) && !cmds.count(n)) th::fail(__FILE__, __LINE__, "no ack of " + n);
    }
    for (size_t i = 1; i < static_cast<size_t>(ParseError::Count); ++i) {
        const ParseError e = static_cast<ParseError>(i);
        const std::string n = name(e);
        // gone is a nak code only: no received line is rejected with it.
        if (e != ParseError::Gone && !errors.count(n)) th::fail(__FILE__, __LINE__, "no invalid vector with error " + n);
        if (isNakCode(e) && !naks.count(n)) th::fail(__FILE__, __LINE__, "no nak vector with code " + n);
        if (isLineError(e) && !lineCodes.count(n)) th::fail(__FILE__, __LINE__, "no err line vector with code " + n);
    }
    for (size_t i = 0; i < static_cast<size_t>(ResetCause::Count); ++i) {
        if (!resets.count(name(static_cast<ResetCause>(i)))) th::fail(__FILE__, __LINE__, "reset cause not covered");
    }
    for (size_t i = 1; i < static_cast<size_t>(ReaderFault::Count); ++i) {
        if (!faults.count(name(static_cast<ReaderFault>(i)))) th::fail(__FILE__, __LINE__, "reader fault not covered");
    }
    for (size_t i = 0; i < static_cast<size_t>(ErrKind::Count); ++i) {
        if (!kinds.count(name(static_cast<ErrKind>(i)))) th::fail(__FILE__, __LINE__, "err kind not covered");
    }
}

}  // namespace

void registerVectorTests(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    auto all = std::make_shared<json::Value>();
    std::string error;
    if (!in || !json::parse(ss.str(), *all, error) || all->kind != json::Value::Kind::Array || all->array.empty()) {
        th::add("vectors: load " + path, [path, error] {
            th::fail(__FILE__, __LINE__, "cannot load " + path + (error.empty() ? "" : ": " + error));
        });
        return;
    }
    th::add("vectors: coverage of every type and error code", [all] { checkCoverage(*all); });
    for (size_t i = 0; i < all->array.size(); ++i) {
        const json::Value* note = all->array[i].get("note");
        const std::string label = "vector " + std::to_string(i) + ": " + (note != nullptr ? note->string : "");
        th::add(label, [all, i] { checkVector(all->array[i]); });
    }
}
