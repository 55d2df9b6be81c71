package io.jstark.protocol;

import io.jstark.math.field.Ext3;
import java.util.Optional;

/** The proof's bytes as they are written: the shared little-endian values, extension elements and names. */
final class ProofOutput extends LittleEndianWriter {
    /** An extension element: its three coefficients c0, c1, c2, 8 bytes each. */
    void ext(Ext3 v) {
        u64(v.c0());
        u64(v.c1());
        u64(v.c2());
    }

    /**
     * A name: u16 length and its UTF-8 bytes.
     *
     * @throws IllegalArgumentException when it breaks {@link ProofFormat#nameViolation}
     */
    void name(String s) {
        Optional<String> violation = NameAndHeightRules.nameViolation(s);
        if (violation.isPresent()) {
            throw new IllegalArgumentException("a name the proof format cannot hold: " + violation.get());
        }
        byte[] b = NameAndHeightRules.utf8(s);
        u16(b.length);
        bytes(b);
    }
}
