package io.jstark.protocol;

import io.jstark.math.field.Ext3;
import io.jstark.math.field.Goldilocks;
import java.io.IOException;
import java.io.InputStream;
import java.util.Optional;

/**
 * The proof's bytes as they are read: the shared {@link LittleEndianReader}, its refusals MALFORMED
 * {@link ProofRejectedException}s naming the byte offset, plus the values only the proof holds, each checked as it
 * is read: flags, canonical field and extension elements, names.
 */
final class ProofInput {
    private final LittleEndianReader<ProofRejectedException, IOException> in;

    private ProofInput(LittleEndianReader<ProofRejectedException, IOException> in) {
        this.in = in;
    }

    private static ProofRejectedException malformedProof(String message) {
        return new ProofRejectedException(ProofRejectedException.Reason.MALFORMED, null, message);
    }

    /** Over a whole array. */
    static ProofInput of(byte[] data) {
        return new ProofInput(LittleEndianReader.of(data, 0, data.length, ProofInput::malformedProof));
    }

    /** Over a stream of at most {@code limit} bytes ({@code lengthKnown}: exactly that many). */
    static ProofInput of(InputStream source, long limit, boolean lengthKnown) {
        return new ProofInput(LittleEndianReader.of(source, limit, lengthKnown, ProofInput::malformedProof));
    }

    long position() {
        return in.position();
    }

    /** From here on the input may hold at most {@code most} bytes in all. */
    void limit(long most) {
        in.limit(most);
    }

    /** {@return MALFORMED, {@code message} at the current offset} */
    ProofRejectedException malformed(String message) {
        return in.malformed(message);
    }

    /** {@code bytes} more must fit in what the input may still hold. */
    void require(long bytes, String what) throws ProofRejectedException {
        in.require(bytes, what);
    }

    /** Nothing may follow the proof's last part. */
    void requireEnd() throws ProofRejectedException, IOException {
        in.requireEnd("the proof's last part");
    }

    int u8(String what) throws ProofRejectedException, IOException {
        return in.u8(what);
    }

    int u16(String what) throws ProofRejectedException, IOException {
        return in.u16(what);
    }

    int u32(String what) throws ProofRejectedException, IOException {
        return in.u32(what);
    }

    long u64(String what) throws ProofRejectedException, IOException {
        return in.u64(what);
    }

    byte[] bytes(int n, String what) throws ProofRejectedException, IOException {
        return in.bytes(n, what);
    }

    /** A byte that must be 0 (false) or 1 (true); another value is refused at its offset. */
    boolean flag(String what) throws ProofRejectedException, IOException {
        long at = position();
        int v = u8(what);
        if (v > 1) {
            throw in.malformedAt(what + " must be 0 or 1, found " + v, at);
        }
        return v == 1;
    }

    /** A field element: 8 bytes, canonical (below the modulus), refused at its offset otherwise. */
    long field(String what) throws ProofRejectedException, IOException {
        long at = position();
        long v = u64(what);
        if (!Goldilocks.isCanonical(v)) {
            throw in.malformedAt(what + " is not a canonical field element", at);
        }
        return v;
    }

    Ext3 ext(String what) throws ProofRejectedException, IOException {
        return new Ext3(field(what), field(what), field(what));
    }

    /** {@code count} extension elements, their bytes checked against the limit before any is allocated. */
    Ext3[] exts(int count, String what) throws ProofRejectedException, IOException {
        require((long) count * Ext3.BYTES, what);
        Ext3[] out = new Ext3[count];
        for (int j = 0; j < count; j++) {
            out[j] = ext(what);
        }
        return out;
    }

    /** A name: u16 length and strict UTF-8 that keeps {@link ProofFormat#nameViolation}'s rules. */
    String name(String what) throws ProofRejectedException, IOException {
        long at = position();
        int length = u16(what);
        if (length > ProofFormat.MAX_NAME_BYTES) {
            throw malformed(what + " has " + length + " bytes, at most " + ProofFormat.MAX_NAME_BYTES + " are allowed");
        }
        String s = in.utf8(length, what);
        Optional<String> violation = NameAndHeightRules.nameViolation(s);
        if (violation.isPresent()) {
            // the name itself stays out of the message: it is what the rule refuses to print
            throw malformedProof(what + " at byte offset " + at + ": " + violation.get());
        }
        return s;
    }
}
