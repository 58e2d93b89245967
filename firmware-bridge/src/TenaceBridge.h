// Umbrella header for the Arduino build: firmware-bridge/ is also an Arduino library (see
// library.properties), and the IDE finds a library by the headers a sketch includes.
#pragma once

#include "bridge.h"
#include "command.h"
#include "crc8.h"
#include "debouncer.h"
#include "event_log.h"
#include "frame.h"
#include "frame_codec.h"
#include "line_assembler.h"
#include "line_sink.h"
#include "protocol.h"
#include "reader_port.h"
#include "scheduler.h"
#include "seq.h"
#include "tx_queue.h"
#include "uid.h"
