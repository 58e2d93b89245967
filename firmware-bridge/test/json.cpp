#include "json.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace json {

namespace {

class Parser {
   public:
    explicit Parser(const std::string& t) : t_(t) {}

    bool document(Value& out, std::string& error) {
        ws();
        if (!value(out)) return report(error);
        ws();
        if (i_ != t_.size()) {
            err_ = "trailing characters";
            return report(error);
        }
        return true;
    }

   private:
    bool report(std::string& error) {
        error = err_ + " at byte " + std::to_string(i_);
        return false;
    }

    void ws() {
        while (i_ < t_.size() && (t_[i_] == ' ' || t_[i_] == '\t' || t_[i_] == '\n' || t_[i_] == '\r')) ++i_;
    }

    bool literal(const char* word) {
        size_t k = 0;
        while (word[k] != '\0') {
            if (i_ + k >= t_.size() || t_[i_ + k] != word[k]) {
                err_ = "bad literal";
                return false;
            }
            ++k;
        }
        i_ += k;
        return true;
    }

    bool value(Value& v) {
        if (++depth_ > 64) {
            err_ = "nesting too deep";
            return false;
        }
        bool ok = false;
        if (i_ >= t_.size()) {
            err_ = "unexpected end";
        } else {
            const char c = t_[i_];
            if (c == '{') {
                ok = object(v);
            } else if (c == '[') {
                ok = array(v);
            } else if (c == '"') {
                v.kind = Value::Kind::String;
                ok = string(v.string);
            } else if (c == 't') {
                v.kind = Value::Kind::Bool;
                v.boolean = true;
                ok = literal("true");
            } else if (c == 'f') {
                v.kind = Value::Kind::Bool;
                v.boolean = false;
                ok = literal("false");
            } else if (c == 'n') {
                v.kind = Value::Kind::Null;
                ok = literal("null");
            } else if (c == '-' || (c >= '0' && c <= '9')) {
                ok = number(v);
            } else {
                err_ = "unexpected character";
            }
        }
        --depth_;
        return ok;
    }

    bool object(Value& v) {
        v.kind = Value::Kind::Object;
        ++i_;  // {
        ws();
        if (i_ < t_.size() && t_[i_] == '}') {
            ++i_;
            return true;
        }
        for (;;) {
            ws();
            std::string key;
            if (i_ >= t_.size() || t_[i_] != '"' || !string(key)) {
                if (err_.empty()) err_ = "expected key";
                return false;
            }
            ws();
            if (i_ >= t_.size() || t_[i_] != ':') {
                err_ = "expected ':'";
                return false;
            }
            ++i_;
            ws();
            Value item;
            if (!value(item)) return false;
            for (const auto& kv : v.object) {
                if (kv.first == key) {
                    err_ = "duplicate key " + key;
                    return false;
                }
            }
            v.object.emplace_back(std::move(key), std::move(item));
            ws();
            if (i_ < t_.size() && t_[i_] == ',') {
                ++i_;
                continue;
            }
            if (i_ < t_.size() && t_[i_] == '}') {
                ++i_;
                return true;
            }
            err_ = "expected ',' or '}'";
            return false;
        }
    }

    bool array(Value& v) {
        v.kind = Value::Kind::Array;
        ++i_;  // [
        ws();
        if (i_ < t_.size() && t_[i_] == ']') {
            ++i_;
            return true;
        }
        for (;;) {
            ws();
            Value item;
            if (!value(item)) return false;
            v.array.push_back(std::move(item));
            ws();
            if (i_ < t_.size() && t_[i_] == ',') {
                ++i_;
                continue;
            }
            if (i_ < t_.size() && t_[i_] == ']') {
                ++i_;
                return true;
            }
            err_ = "expected ',' or ']'";
            return false;
        }
    }

    static void utf8(std::string& out, unsigned long cp) {
        if (cp < 0x80) {
            out += static_cast<char>(cp);
        } else if (cp < 0x800) {
            out += static_cast<char>(0xC0 | (cp >> 6));
            out += static_cast<char>(0x80 | (cp & 0x3F));
        } else if (cp < 0x10000) {
            out += static_cast<char>(0xE0 | (cp >> 12));
            out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (cp & 0x3F));
        } else {
            out += static_cast<char>(0xF0 | (cp >> 18));
            out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
            out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (cp & 0x3F));
        }
    }

    bool hex4(unsigned long& cp) {
        if (i_ + 4 > t_.size()) {
            err_ = "short \\u escape";
            return false;
        }
        cp = 0;
        for (int k = 0; k < 4; ++k) {
            const char c = t_[i_++];
            cp <<= 4;
            if (c >= '0' && c <= '9') {
                cp |= static_cast<unsigned long>(c - '0');
            } else if (c >= 'a' && c <= 'f') {
                cp |= static_cast<unsigned long>(c - 'a' + 10);
            } else if (c >= 'A' && c <= 'F') {
                cp |= static_cast<unsigned long>(c - 'A' + 10);
            } else {
                err_ = "bad \\u escape";
                return false;
            }
        }
        return true;
    }

    bool string(std::string& out) {
        ++i_;  // opening quote
        while (i_ < t_.size()) {
            const unsigned char c = static_cast<unsigned char>(t_[i_++]);
            if (c == '"') return true;
            if (c < 0x20) {
                err_ = "raw control character in string";
                return false;
            }
            if (c != '\\') {
                out += static_cast<char>(c);
                continue;
            }
            if (i_ >= t_.size()) break;
            const char e = t_[i_++];
            switch (e) {
                case '"': out += '"'; break;
                case '\\': out += '\\'; break;
                case '/': out += '/'; break;
                case 'b': out += '\b'; break;
                case 'f': out += '\f'; break;
                case 'n': out += '\n'; break;
                case 'r': out += '\r'; break;
                case 't': out += '\t'; break;
                case 'u': {
                    unsigned long cp = 0;
                    if (!hex4(cp)) return false;
                    if (cp >= 0xD800 && cp <= 0xDBFF) {
                        unsigned long lo = 0;
                        if (i_ + 2 > t_.size() || t_[i_] != '\\' || t_[i_ + 1] != 'u') {
                            err_ = "lone surrogate";
                            return false;
                        }
                        i_ += 2;
                        if (!hex4(lo) || lo < 0xDC00 || lo > 0xDFFF) {
                            err_ = "bad surrogate pair";
                            return false;
                        }
                        cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                    }
                    utf8(out, cp);
                    break;
                }
                default:
                    err_ = "bad escape";
                    return false;
            }
        }
        err_ = "unterminated string";
        return false;
    }

    bool number(Value& v) {
        const size_t start = i_;
        if (t_[i_] == '-') ++i_;
        auto digits = [&] {
            const size_t s = i_;
            while (i_ < t_.size() && t_[i_] >= '0' && t_[i_] <= '9') ++i_;
            return i_ > s;
        };
        if (i_ < t_.size() && t_[i_] == '0') {
            ++i_;
        } else if (!digits()) {
            err_ = "bad number";
            return false;
        }
        if (i_ < t_.size() && t_[i_] == '.') {
            ++i_;
            if (!digits()) {
                err_ = "bad fraction";
                return false;
            }
        }
        if (i_ < t_.size() && (t_[i_] == 'e' || t_[i_] == 'E')) {
            ++i_;
            if (i_ < t_.size() && (t_[i_] == '+' || t_[i_] == '-')) ++i_;
            if (!digits()) {
                err_ = "bad exponent";
                return false;
            }
        }
        v.kind = Value::Kind::Number;
        v.number = std::strtod(t_.substr(start, i_ - start).c_str(), nullptr);
        return true;
    }

    const std::string& t_;
    size_t i_ = 0;
    int depth_ = 0;
    std::string err_;
};

void dumpString(const std::string& s, std::string& out) {
    out += '"';
    for (const char ch : s) {
        const unsigned char c = static_cast<unsigned char>(ch);
        if (c == '"' || c == '\\') {
            out += '\\';
            out += ch;
        } else if (c < 0x20 || c == 0x7F) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", c);
            out += buf;
        } else {
            out += ch;
        }
    }
    out += '"';
}

void dumpValue(const Value& v, std::string& out) {
    switch (v.kind) {
        case Value::Kind::Null: out += "null"; break;
        case Value::Kind::Bool: out += v.boolean ? "true" : "false"; break;
        case Value::Kind::Number: {
            char buf[32];
            if (std::floor(v.number) == v.number && std::fabs(v.number) < 1e15) {
                std::snprintf(buf, sizeof buf, "%.0f", v.number);
            } else {
                std::snprintf(buf, sizeof buf, "%.17g", v.number);
            }
            out += buf;
            break;
        }
        case Value::Kind::String: dumpString(v.string, out); break;
        case Value::Kind::Array:
            out += '[';
            for (size_t i = 0; i < v.array.size(); ++i) {
                if (i) out += ',';
                dumpValue(v.array[i], out);
            }
            out += ']';
            break;
        case Value::Kind::Object:
            out += '{';
            for (size_t i = 0; i < v.object.size(); ++i) {
                if (i) out += ',';
                dumpString(v.object[i].first, out);
                out += ':';
                dumpValue(v.object[i].second, out);
            }
            out += '}';
            break;
    }
}

}  // namespace

const Value* Value::get(const std::string& key) const {
    if (kind != Kind::Object) return nullptr;
    for (const auto& kv : object) {
        if (kv.first == key) return &kv.second;
    }
    return nullptr;
}

bool Value::operator==(const Value& o) const {
    if (kind != o.kind) return false;
    switch (kind) {
        case Kind::Null: return true;
        case Kind::Bool: return boolean == o.boolean;
        case Kind::Number: return number == o.number;
        case Kind::String: return string == o.string;
        case Kind::Array: return array == o.array;
        case Kind::Object:
            if (object.size() != o.object.size()) return false;
            for (const auto& kv : object) {
                const Value* other = o.get(kv.first);
                if (other == nullptr || !(kv.second == *other)) return false;
            }
            return true;
    }
    return false;
}

std::string Value::dump() const {
    std::string out;
    dumpValue(*this, out);
    return out;
}

bool parse(const std::string& text, Value& out, std::string& error) {
    out = Value{};
    Parser p(text);
    return p.document(out, error);
}

Value str(const std::string& s) {
    Value v;
    v.kind = Value::Kind::String;
    v.string = s;
    return v;
}

Value num(double n) {
    Value v;
    v.kind = Value::Kind::Number;
    v.number = n;
    return v;
}

Value arr(std::vector<Value> items) {
    Value v;
    v.kind = Value::Kind::Array;
    v.array = std::move(items);
    return v;
}

}  // namespace json
