package io.jstark.protocol;

import java.util.List;

/** Writes a proof in the layout of {@link ProofFormat}: the header here, the body by {@link ProofBody}. */
final class ProofWriter {
    private ProofWriter() {}

    /** The proof's bytes and the bytes of each of its parts. */
    static ProofFormat.Written write(Proof proof) {
        ProofOutput out = new ProofOutput();
        ProofSizes sizes = new ProofSizes();
        writeHeader(out, proof.options(), proof.tables());
        sizes.add(null, "header", out.size());
        ProofBody.writeBody(out, proof, sizes);
        return new ProofFormat.Written(out.toByteArray(), sizes);
    }

    private static void writeHeader(ProofOutput out, ProofOptions o, List<Proof.TableHeader> tables) {
        out.bytes(ProofFormat.MAGIC);
        out.u16(ProofFormat.VERSION);
        out.bytes(OptionsCodec.encode(o));
        out.u16(tables.size());
        for (Proof.TableHeader t : tables) {
            out.name(t.name());
            out.name(t.airName());
            out.u8(t.logHeight());
            out.u16(t.publicInputs().length);
            for (long v : t.publicInputs()) {
                out.u64(v);
            }
            out.u8(t.preprocessedRoot() == null ? 0 : 1);
            if (t.preprocessedRoot() != null) {
                out.bytes(t.preprocessedRoot());
            }
        }
    }

    /** A flag, then the opening where there is one. */
    static void optionalOpening(ProofOutput out, Proof.TreeOpening opening) {
        out.u8(opening == null ? 0 : 1);
        if (opening != null) {
            opening(out, opening);
        }
    }

    /** u32 leaves, u32 elements per leaf, the elements, u32 siblings, the sibling digests. */
    static void opening(ProofOutput out, Proof.TreeOpening opening) {
        long[][] leaves = opening.leafValues();
        out.u32(leaves.length);
        out.u32(leaves.length == 0 ? 0 : leaves[0].length);
        for (long[] leaf : leaves) {
            for (long v : leaf) {
                out.u64(v);
            }
        }
        out.u32(opening.siblings().length);
        for (byte[] s : opening.siblings()) {
            out.bytes(s);
        }
    }
}
