// Just enough JSON to read vectors/protocol-vectors.json: the full value grammar (RFC 8259), no
// extensions, strict errors. Numbers are kept as double, which is exact for the integers the
// vectors hold (< 2^53).
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace json {

struct Value {
    enum class Kind { Null, Bool, Number, String, Array, Object };

    Kind kind = Kind::Null;
    bool boolean = false;
    double number = 0;
    std::string string;
    std::vector<Value> array;
    std::vector<std::pair<std::string, Value>> object;  // in file order

    const Value* get(const std::string& key) const;
    bool isString() const { return kind == Kind::String; }
    bool isObject() const { return kind == Kind::Object; }

    // Objects compare as unordered key sets.
    bool operator==(const Value& o) const;
    bool operator!=(const Value& o) const { return !(*this == o); }

    std::string dump() const;
};

// Returns false and sets `error` (with a byte offset) on malformed input.
bool parse(const std::string& text, Value& out, std::string& error);

Value str(const std::string& s);
Value num(double n);
Value arr(std::vector<Value> items);

}  // namespace json
