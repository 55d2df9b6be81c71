package io.jstark.protocol;

/** The options reach fewer conjectured bits than required. */
public final class InsufficientSecurityException extends IllegalArgumentException {
    private final int bits;
    private final int required;

    public InsufficientSecurityException(int bits, int required, String limitedBy, String advice) {
        super("options give " + bits + " conjectured bits of security, " + required + " required (limited by " + limitedBy + "): "
                + advice);
        this.bits = bits;
        this.required = required;
    }

    public int bits() {
        return bits;
    }

    public int required() {
        return required;
    }
}
