// Stub of the arduino-pico core API used by the sketch (declarations only; see README.md).
#pragma once

#include <stddef.h>
#include <stdint.h>

typedef uint8_t byte;
typedef uint8_t pin_size_t;

#define HIGH 0x1
#define LOW 0x0
#define INPUT 0x0
#define OUTPUT 0x1
#define LED_BUILTIN 25

void pinMode(pin_size_t pin, int mode);
void digitalWrite(pin_size_t pin, int val);
int digitalRead(pin_size_t pin);
unsigned long millis(void);
unsigned long micros(void);
void delay(unsigned long ms);
void delayMicroseconds(unsigned int us);

class SerialUSB {
   public:
    void begin(unsigned long baud = 115200);
    int available();
    int read();
    int availableForWrite();
    size_t write(const uint8_t* buf, size_t len);
    void flush();
    explicit operator bool();
};
extern SerialUSB Serial;

class RP2040 {
   public:
    enum resetReason_t { UNKNOWN_RESET, PWRON_RESET, RUN_PIN_RESET, SOFT_RESET, WDT_RESET, DEBUG_RESET, GLITCH_RESET, BROWNOUT_RESET };
    resetReason_t getResetReason(void);
    void wdt_begin(uint32_t delay_ms);
    void wdt_reset();
    void reboot();
    uint32_t hwrand32();
};
extern RP2040 rp2040;
