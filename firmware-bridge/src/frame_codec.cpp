#include "frame_codec.h"

#include <cstring>

#include "crc8.h"

namespace tenace {

namespace {

struct Token {
    const char* p = nullptr;
    size_t n = 0;
};

// seq, type and at most 6 fields in v2 (identity). Tokens beyond this are counted (extra-field),
// not stored.
constexpr size_t kMaxTokens = 8;

const char kHexDigits[] = "0123456789ABCDEF";

int upperHexValue(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

// Canonical unsigned decimal: digits only, no sign, no leading zero unless the value is 0.
// One spelling per value keeps "decode then encode" an identity, which the vectors rely on.
bool decimal(const Token& t, uint32_t min, uint32_t max, uint32_t& out) {
    if (t.n == 0 || t.n > 10) return false;
    if (t.n > 1 && t.p[0] == '0') return false;
    uint64_t v = 0;
    for (size_t i = 0; i < t.n; ++i) {
        const char c = t.p[i];
        if (c < '0' || c > '9') return false;
        v = v * 10 + static_cast<uint64_t>(c - '0');
    }
    if (v < min || v > max) return false;
    out = static_cast<uint32_t>(v);
    return true;
}

template <typename T>
bool decimalAs(const Token& t, uint32_t min, uint32_t max, T& out) {
    uint32_t v = 0;
    if (!decimal(t, min, max, v)) return false;
    out = static_cast<T>(v);
    return true;
}

bool firmwareChar(char c) {
    return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '.' || c == '_' ||
           c == '+' || c == '-';
}

bool parseFirmware(const Token& t, Frame& f) {
    if (t.n == 0 || t.n > kMaxFirmwareLength) return false;
    for (size_t i = 0; i < t.n; ++i) {
        if (!firmwareChar(t.p[i])) return false;
    }
    std::memcpy(f.fw, t.p, t.n);
    f.fw[t.n] = '\0';
    return true;
}

bool parseStatus(const Token& t, Frame& f) {
    if (t.n == 0 || t.n > kMaxReaders) return false;
    for (size_t i = 0; i < t.n; ++i) {
        if (!isReaderStateChar(t.p[i])) return false;
        f.status[i] = t.p[i];
    }
    f.statusLen = static_cast<uint8_t>(t.n);
    return true;
}

// hb tag counts: one decimal digit per reader, as many as there are status characters.
bool parseTagCounts(const Token& t, Frame& f) {
    if (t.n != f.statusLen) return false;
    for (size_t i = 0; i < t.n; ++i) {
        if (t.p[i] < '0' || t.p[i] > '9') return false;
        f.tags[i] = static_cast<uint8_t>(t.p[i] - '0');
    }
    return true;
}

bool parseReader(const Token& t, uint8_t& out) { return decimalAs(t, 0, kMaxReaders - 1, out); }

bool parseUid(const Token& t, Uid& out) { return uidFromHex(t.p, t.n, out); }

bool parseBoot(const Token& t, uint16_t& out) { return decimalAs(t, kBootMin, kSeqMax, out); }

// rec: the logged line's type word, arrive or leave.
bool parseRecKind(const Token& t, MsgType& out) {
    return parseName(t.p, t.n, out) && (out == MsgType::Arrive || out == MsgType::Leave);
}

// Number of fields after the type token, or -1 where it depends on the first field (err).
int fieldCount(MsgType t) {
    switch (t) {
        case MsgType::Hello: return 5;
        case MsgType::Cfg: return 2;
        case MsgType::Hb: return 4;
        case MsgType::Arrive: return 2;
        case MsgType::Leave: return 2;
        case MsgType::Err: return -1;
        case MsgType::Ack: return 2;
        case MsgType::Nak: return 2;
        case MsgType::Snap: return 2;
        case MsgType::Tag: return 2;
        case MsgType::SnapEnd: return 3;
        case MsgType::Identity: return 6;
        case MsgType::Replay: return 2;
        case MsgType::Rec: return 4;
        case MsgType::ReplayEnd: return 2;
        case MsgType::Since: return 2;
        case MsgType::Ping: return 0;
        case MsgType::Reset: return 0;
        case MsgType::Present: return 0;
        case MsgType::Set: return 2;
        case MsgType::Ident: return 0;
        default: return 0;
    }
}

int errFieldCount(ErrKind k) {
    switch (k) {
        case ErrKind::Reader: return 3;    // reader <r> <code>
        case ErrKind::Overflow: return 2;  // overflow <dropped>
        case ErrKind::Line: return 2;      // line <code>
        default: return 0;
    }
}

// Field grammar per type; `fld` excludes seq and type. Returns false on the first bad field.
bool parseFields(Frame& f, const Token* fld) {
    switch (f.type) {
        case MsgType::Hello:
            return parseFirmware(fld[0], f) && decimalAs(fld[1], 1, 255, f.proto) &&
                   decimalAs(fld[2], 1, kMaxReaders, f.readers) && parseName(fld[3].p, fld[3].n, f.reset) &&
                   parseBoot(fld[4], f.boot);
        case MsgType::Identity:
            return parseFirmware(fld[0], f) && decimalAs(fld[1], 1, 255, f.proto) &&
                   decimalAs(fld[2], 1, kMaxReaders, f.readers) && parseName(fld[3].p, fld[3].n, f.reset) &&
                   decimalAs(fld[4], 0, 0xFFFFFFFFu, f.uptimeS) && parseBoot(fld[5], f.boot);
        case MsgType::Cfg:
        case MsgType::Set:
            return decimalAs(fld[0], kPollMsMin, kPollMsMax, f.pollMs) &&
                   decimalAs(fld[1], kMissesMin, kMissesMax, f.misses);
        case MsgType::Hb:
            return decimalAs(fld[0], 0, 0xFFFFFFFFu, f.uptimeS) && parseStatus(fld[1], f) &&
                   parseTagCounts(fld[2], f) && parseBoot(fld[3], f.boot);
        case MsgType::Arrive:
        case MsgType::Leave:
        case MsgType::Tag:
            return parseReader(fld[0], f.reader) && parseUid(fld[1], f.uid);
        case MsgType::Err:
            switch (f.errKind) {
                case ErrKind::Reader:
                    return parseReader(fld[1], f.reader) && parseName(fld[2].p, fld[2].n, f.fault) &&
                           f.fault != ReaderFault::None;
                case ErrKind::Overflow:
                    return decimalAs(fld[1], 1, kSeqMax, f.dropped);
                case ErrKind::Line:
                    return parseName(fld[1].p, fld[1].n, f.code) && isLineError(f.code);
                default:
                    return false;
            }
        case MsgType::Ack:
            return decimalAs(fld[0], 0, kSeqMax, f.hseq) && parseName(fld[1].p, fld[1].n, f.cmd) &&
                   isHostCommand(f.cmd);
        case MsgType::Nak:
            return decimalAs(fld[0], 0, kSeqMax, f.hseq) && parseName(fld[1].p, fld[1].n, f.code) &&
                   isNakCode(f.code);
        case MsgType::Snap:
            return decimalAs(fld[0], 0, kSeqMax, f.hseq) && decimalAs(fld[1], 0, kSeqMax, f.total);
        case MsgType::SnapEnd:
            return decimalAs(fld[0], 0, kSeqMax, f.hseq) && decimalAs(fld[1], 0, kSeqMax, f.total) &&
                   parseStatus(fld[2], f);
        case MsgType::Replay:
        case MsgType::ReplayEnd:
            return decimalAs(fld[0], 0, kSeqMax, f.hseq) && decimalAs(fld[1], 0, kSeqMax, f.count);
        case MsgType::Rec:
            // The original seq is that of an arrive/leave line, never the hello's 0.
            return decimalAs(fld[0], 1, kSeqMax, f.oseq) && parseRecKind(fld[1], f.recKind) &&
                   parseReader(fld[2], f.reader) && parseUid(fld[3], f.uid);
        case MsgType::Since:
            return parseBoot(fld[0], f.boot) && decimalAs(fld[1], 0, kSeqMax, f.after);
        case MsgType::Ping:
        case MsgType::Reset:
        case MsgType::Present:
        case MsgType::Ident:
            return true;
        default:
            return false;
    }
}

// Appends to a fixed buffer; any overflow poisons the whole write.
class Writer {
   public:
    Writer(char* buf, size_t cap) : buf_(buf), cap_(cap) {}

    void ch(char c) {
        if (len_ < cap_) {
            buf_[len_++] = c;
        } else {
            ok_ = false;
        }
    }
    void str(const char* s) {
        while (*s) ch(*s++);
    }
    void chars(const char* s, size_t n) {
        for (size_t i = 0; i < n; ++i) ch(s[i]);
    }
    void u32(uint32_t v) {
        char tmp[10];
        size_t n = 0;
        do {
            tmp[n++] = static_cast<char>('0' + v % 10);
            v /= 10;
        } while (v != 0);
        while (n > 0) ch(tmp[--n]);
    }
    void hex8(uint8_t v) {
        ch(kHexDigits[v >> 4]);
        ch(kHexDigits[v & 0x0F]);
    }
    void uid(const Uid& u) {
        char tmp[2 * kMaxUidBytes];
        const size_t n = uidToHex(u, tmp, sizeof tmp);
        if (n == 0) ok_ = false;
        chars(tmp, n);
    }
    void sp() { ch(' '); }
    void fail() { ok_ = false; }

    bool ok() const { return ok_; }
    size_t len() const { return len_; }

   private:
    char* buf_;
    size_t cap_;
    size_t len_ = 0;
    bool ok_ = true;
};

void writeFields(const Frame& f, Writer& w) {
    switch (f.type) {
        case MsgType::Hello:
        case MsgType::Identity:
            w.sp(); w.str(f.fw);
            w.sp(); w.u32(f.proto);
            w.sp(); w.u32(f.readers);
            w.sp(); w.str(name(f.reset));
            if (f.type == MsgType::Identity) {
                w.sp(); w.u32(f.uptimeS);
            }
            w.sp(); w.u32(f.boot);
            break;
        case MsgType::Cfg:
        case MsgType::Set:
            w.sp(); w.u32(f.pollMs);
            w.sp(); w.u32(f.misses);
            break;
        case MsgType::Hb:
            if (f.statusLen > kMaxReaders) { w.fail(); break; }
            w.sp(); w.u32(f.uptimeS);
            w.sp(); w.chars(f.status, f.statusLen);
            w.sp();
            for (uint8_t i = 0; i < f.statusLen; ++i) {
                if (f.tags[i] > 9) w.fail();
                w.ch(static_cast<char>('0' + (f.tags[i] % 10)));
            }
            w.sp(); w.u32(f.boot);
            break;
        case MsgType::Arrive:
        case MsgType::Leave:
        case MsgType::Tag:
            w.sp(); w.u32(f.reader);
            w.sp(); w.uid(f.uid);
            break;
        case MsgType::Err:
            w.sp(); w.str(name(f.errKind));
            switch (f.errKind) {
                case ErrKind::Reader:
                    w.sp(); w.u32(f.reader);
                    w.sp(); w.str(name(f.fault));
                    break;
                case ErrKind::Overflow:
                    w.sp(); w.u32(f.dropped);
                    break;
                case ErrKind::Line:
                    w.sp(); w.str(name(f.code));
                    break;
                default:
                    w.fail();
            }
            break;
        case MsgType::Ack:
            w.sp(); w.u32(f.hseq);
            w.sp(); w.str(name(f.cmd));
            break;
        case MsgType::Nak:
            w.sp(); w.u32(f.hseq);
            w.sp(); w.str(name(f.code));
            break;
        case MsgType::Snap:
            w.sp(); w.u32(f.hseq);
            w.sp(); w.u32(f.total);
            break;
        case MsgType::SnapEnd:
            if (f.statusLen > kMaxReaders) { w.fail(); break; }
            w.sp(); w.u32(f.hseq);
            w.sp(); w.u32(f.total);
            w.sp(); w.chars(f.status, f.statusLen);
            break;
        case MsgType::Replay:
        case MsgType::ReplayEnd:
            w.sp(); w.u32(f.hseq);
            w.sp(); w.u32(f.count);
            break;
        case MsgType::Rec:
            w.sp(); w.u32(f.oseq);
            w.sp(); w.str(name(f.recKind));
            w.sp(); w.u32(f.reader);
            w.sp(); w.uid(f.uid);
            break;
        case MsgType::Since:
            w.sp(); w.u32(f.boot);
            w.sp(); w.u32(f.after);
            break;
        case MsgType::Ping:
        case MsgType::Reset:
        case MsgType::Present:
        case MsgType::Ident:
            break;
        default:
            w.fail();
    }
}

}  // namespace

ParseResult parseLine(const char* line, size_t len) {
    ParseResult r;

    // 1. terminator: one '\r' before the '\n' is tolerated (the '\n' is not part of `line`).
    if (len > 0 && line[len - 1] == '\r') --len;
    // 2. empty: receivers ignore it silently, so a host may send "\n" to flush a half line.
    if (len == 0) {
        r.error = ParseError::Empty;
        return r;
    }
    // 3. length
    if (len > kMaxLineLength) {
        r.error = ParseError::TooLong;
        return r;
    }
    // 4. printable ASCII only: anything else is line noise, a baud mismatch or a binary bootloader.
    for (size_t i = 0; i < len; ++i) {
        const unsigned char c = static_cast<unsigned char>(line[i]);
        if (c < 0x20 || c > 0x7E) {
            r.error = ParseError::BadChar;
            return r;
        }
    }
    // 5. checksum trailer "*HH" with at least one body byte before it.
    if (len < 4 || line[len - 3] != '*' || upperHexValue(line[len - 2]) < 0 || upperHexValue(line[len - 1]) < 0) {
        r.error = ParseError::NoChecksum;
        return r;
    }
    const size_t bodyLen = len - 3;
    const uint8_t sent = static_cast<uint8_t>((upperHexValue(line[len - 2]) << 4) | upperHexValue(line[len - 1]));
    // 6. CRC before any further interpretation: nothing in a corrupted line is trusted.
    if (crc8(line, bodyLen) != sent) {
        r.error = ParseError::BadCrc;
        return r;
    }
    // 7. tokens: single spaces between non-empty tokens, no '*' inside the body.
    Token tok[kMaxTokens];
    size_t count = 0;
    {
        size_t start = 0;
        for (size_t i = 0; i <= bodyLen; ++i) {
            if (i < bodyLen && line[i] == '*') {
                r.error = ParseError::BadFrame;
                return r;
            }
            if (i == bodyLen || line[i] == ' ') {
                if (i == start) {  // leading, trailing or doubled space
                    r.error = ParseError::BadFrame;
                    return r;
                }
                if (count < kMaxTokens) {
                    tok[count].p = line + start;
                    tok[count].n = i - start;
                }
                ++count;
                start = i + 1;
            }
        }
    }
    // 8. sequence number
    if (!decimalAs(tok[0], 0, kSeqMax, r.frame.seq)) {
        r.error = ParseError::BadSeq;
        return r;
    }
    r.haveSeq = true;
    // 9. type
    if (count < 2) {
        r.error = ParseError::MissingField;
        return r;
    }
    if (!parseName(tok[1].p, tok[1].n, r.frame.type)) {
        r.error = ParseError::UnknownType;
        return r;
    }
    r.haveType = true;
    // 10. field count (for err it depends on the kind, which is checked first)
    const size_t nFields = count - 2;
    int expected = fieldCount(r.frame.type);
    if (r.frame.type == MsgType::Err) {
        if (nFields == 0) {
            r.error = ParseError::MissingField;
            return r;
        }
        if (!parseName(tok[2].p, tok[2].n, r.frame.errKind)) {
            r.error = ParseError::BadField;
            return r;
        }
        expected = errFieldCount(r.frame.errKind);
    }
    if (nFields < static_cast<size_t>(expected)) {
        r.error = ParseError::MissingField;
        return r;
    }
    if (nFields > static_cast<size_t>(expected)) {
        r.error = ParseError::ExtraField;
        return r;
    }
    // 11. each field, left to right
    if (!parseFields(r.frame, tok + 2)) {
        r.error = ParseError::BadField;
        return r;
    }
    // 12. device lines: seq 0 is the hello and only the hello, so a reset is never mistaken for a wrap.
    if (!isHostCommand(r.frame.type) && ((r.frame.seq == 0) != (r.frame.type == MsgType::Hello))) {
        r.error = ParseError::BadSeq;
        return r;
    }
    return r;
}

size_t encodeFrame(const Frame& f, char* out, size_t cap) {
    char buf[kMaxLineLength];
    // The body leaves room for "*HH".
    Writer w(buf, kMaxLineLength - 3);
    w.u32(f.seq);
    w.sp();
    const char* type = name(f.type);
    if (*type == '\0') return 0;
    w.str(type);
    writeFields(f, w);
    if (!w.ok()) return 0;

    size_t len = w.len();
    const uint8_t crc = crc8(buf, len);
    buf[len++] = '*';
    buf[len++] = kHexDigits[crc >> 4];
    buf[len++] = kHexDigits[crc & 0x0F];

    // Self-check: the writer does not validate field values (a firmware string with a space, a
    // reader index of 9, an out-of-range poll interval); the parser does, with the same rules the
    // host uses. A frame that fails is dropped here rather than rejected over there.
    if (!parseLine(buf, len).ok()) return 0;

    if (cap < len + 1) return 0;
    std::memcpy(out, buf, len);
    out[len++] = '\n';
    return len;
}

}  // namespace tenace
