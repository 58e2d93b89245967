// A small test harness: TEST cases registered at static-init time (or added at run time, as the
// protocol vectors are), non-fatal CHECKs, fatal REQUIREs, and a last line "N passed, M failed".
#pragma once

#include <cstdint>
#include <functional>
#include <sstream>
#include <string>
#include <type_traits>

namespace th {

struct Abort {};  // thrown by REQUIRE to end the current case

void add(const std::string& name, std::function<void()> fn);
void fail(const char* file, int line, const std::string& message);
int run(const std::string& filter);

struct Registrar {
    Registrar(const char* name, void (*fn)()) { add(name, fn); }
};

template <typename T>
std::string show(const T& v) {
    std::ostringstream os;
    if constexpr (std::is_enum_v<T>) {
        os << static_cast<long long>(v);
    } else if constexpr (std::is_same_v<T, uint8_t> || std::is_same_v<T, int8_t>) {
        os << static_cast<int>(v);
    } else if constexpr (std::is_same_v<T, bool>) {
        os << (v ? "true" : "false");
    } else {
        os << v;
    }
    return os.str();
}

template <typename A, typename B>
std::string describe(const char* ea, const char* eb, const A& a, const B& b) {
    return std::string("CHECK_EQ(") + ea + ", " + eb + "): " + show(a) + " != " + show(b);
}

}  // namespace th

#define TH_CAT2(a, b) a##b
#define TH_CAT(a, b) TH_CAT2(a, b)

#define TEST(name)                                                       \
    static void name();                                                  \
    static const th::Registrar TH_CAT(th_reg_, name)(#name, &name);      \
    static void name()

#define CHECK(cond)                                                            \
    do {                                                                       \
        if (!(cond)) th::fail(__FILE__, __LINE__, "CHECK(" #cond ")");         \
    } while (0)

#define CHECK_EQ(a, b)                                                         \
    do {                                                                       \
        const auto& th_a = (a);                                                \
        const auto& th_b = (b);                                                \
        if (!(th_a == th_b)) th::fail(__FILE__, __LINE__, th::describe(#a, #b, th_a, th_b)); \
    } while (0)

#define REQUIRE(cond)                                                          \
    do {                                                                       \
        if (!(cond)) {                                                         \
            th::fail(__FILE__, __LINE__, "REQUIRE(" #cond ")");                \
            throw th::Abort{};                                                 \
        }                                                                      \
    } while (0)
