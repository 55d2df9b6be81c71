package io.jstark.protocol;

import java.io.ByteArrayOutputStream;

/**
 * A growable little-endian byte buffer: the writing half of the byte formats this module defines (the proof, the
 * verifying key, the preprocessed cache's entries), whose values are unsigned little-endian integers of 1, 2, 4
 * or 8 bytes and raw byte strings. A format adds its own values (field elements, names) on top.
 */
class LittleEndianWriter extends ByteArrayOutputStream {
    /** The low 8 bits of {@code v}. */
    void u8(int v) {
        write(v);
    }

    /** The low 16 bits of {@code v}, low byte first. */
    void u16(int v) {
        write(v);
        write(v >>> 8);
    }

    void u32(int v) {
        for (int i = 0; i < 4; i++) {
            write(v >>> (8 * i));
        }
    }

    void u64(long v) {
        for (int i = 0; i < 8; i++) {
            write((int) (v >>> (8 * i)));
        }
    }

    void bytes(byte[] b) {
        write(b, 0, b.length);
    }
}
