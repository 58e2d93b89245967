// Stub of the MFRC522 library 1.4.x API used by the sketch (declarations only).
#pragma once

#include <stdint.h>

#include "Arduino.h"
#include "SPI.h"

class MFRC522 {
   public:
    static constexpr uint8_t UNUSED_PIN = UINT8_MAX;

    enum PCD_Register : byte {
        CommandReg = 0x01 << 1,
        TModeReg = 0x2A << 1,
        TPrescalerReg = 0x2B << 1,
        TReloadRegH = 0x2C << 1,
        TReloadRegL = 0x2D << 1,
        VersionReg = 0x37 << 1,
    };

    enum PCD_RxGain : byte {
        RxGain_18dB = 0x00 << 4,
        RxGain_23dB = 0x01 << 4,
        RxGain_33dB = 0x04 << 4,
        RxGain_38dB = 0x05 << 4,
        RxGain_43dB = 0x06 << 4,
        RxGain_48dB = 0x07 << 4,
        RxGain_min = 0x00 << 4,
        RxGain_avg = 0x04 << 4,
        RxGain_max = 0x07 << 4
    };

    enum StatusCode : byte {
        STATUS_OK,
        STATUS_ERROR,
        STATUS_COLLISION,
        STATUS_TIMEOUT,
        STATUS_NO_ROOM,
        STATUS_INTERNAL_ERROR,
        STATUS_INVALID,
        STATUS_CRC_WRONG,
        STATUS_MIFARE_NACK = 0xff
    };

    typedef struct {
        byte size;
        byte uidByte[10];
        byte sak;
    } Uid;

    Uid uid;

    MFRC522();
    MFRC522(byte resetPowerDownPin);
    MFRC522(byte chipSelectPin, byte resetPowerDownPin);

    void PCD_WriteRegister(PCD_Register reg, byte value);
    byte PCD_ReadRegister(PCD_Register reg);
    void PCD_Init();
    void PCD_Init(byte chipSelectPin, byte resetPowerDownPin);
    void PCD_AntennaOn();
    void PCD_AntennaOff();
    byte PCD_GetAntennaGain();
    void PCD_SetAntennaGain(byte mask);
    StatusCode PICC_RequestA(byte* bufferATQA, byte* bufferSize);
    StatusCode PICC_WakeupA(byte* bufferATQA, byte* bufferSize);
    virtual StatusCode PICC_Select(Uid* uid, byte validBits = 0);
    StatusCode PICC_HaltA();
};
