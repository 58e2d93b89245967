// Stub of pico-sdk hardware/watchdog.h as used by the sketch (declarations only).
#pragma once

#include <stdint.h>

typedef struct {
    volatile uint32_t ctrl;
    volatile uint32_t load;
    volatile uint32_t reason;
    volatile uint32_t scratch[8];
    volatile uint32_t tick;
} watchdog_hw_t;

extern watchdog_hw_t watchdog_stub_hw;
#define watchdog_hw (&watchdog_stub_hw)
