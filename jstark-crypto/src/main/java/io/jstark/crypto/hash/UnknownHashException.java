package io.jstark.crypto.hash;

/** A hash name or proof id that names no supported hash. */
public final class UnknownHashException extends IllegalArgumentException {
    private UnknownHashException(String message) {
        super(message);
    }

    static UnknownHashException forName(String name) {
        return new UnknownHashException("unknown hash '" + name + "'; supported: " + Hashers.supportedNames());
    }

    static UnknownHashException forId(int id) {
        return new UnknownHashException("unknown hash id " + id + " (0x" + Integer.toHexString(id & 0xFF)
                + "); supported: " + Hashers.supportedIds());
    }
}
