// Stub of the arduino-pico SPI API used by the sketch (declarations only).
#pragma once

#include "Arduino.h"

class SPIClassRP2040 {
   public:
    bool setRX(pin_size_t pin);
    bool setCS(pin_size_t pin);
    bool setSCK(pin_size_t pin);
    bool setTX(pin_size_t pin);
    void begin(bool hwCS = false);
    void end();
};
extern SPIClassRP2040 SPI;
