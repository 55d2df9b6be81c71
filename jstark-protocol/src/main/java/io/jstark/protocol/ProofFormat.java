package io.jstark.protocol;

import io.jstark.crypto.hash.Hasher;
import io.jstark.crypto.hash.Hashers;
import io.jstark.fri.FriProof;
import io.jstark.math.field.Ext3;
import io.jstark.math.field.Goldilocks;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The binary proof format, version {@value #VERSION}. All integers little-endian; field elements 8
 * bytes canonical; extension elements 24 bytes (c0, c1, c2); digests 32 bytes; strings u16 length +
 * UTF-8.
 *
 * <pre>
 * "JSTK" u16 version
 * options: u8 log2 blowup, u8 queries, u8 grinding bits, u8 log2 folding factor, u8 log2 final degree,
 *          u8 hash id, u8 required security bits
 * u16 table count; per table: str name, str air name, u8 log2 height,
 *          u16 public input count + elements, u8 has preprocessed (+ digest)
 * main roots: one digest per table
 * per table: u32 section length, then
 *   u8 has aux (+ digest aux root, ext bus sum); digest composition root
 *   ood: 7 x (u16 count + ext values) in OodFrame order
 *   fri: u8 committed layers + digests; u16 final coefficients + ext values
 *   u64 grinding nonce
 *   openings: preprocessed (u8 present + opening), main, aux (u8 present + opening), composition,
 *             then one opening per committed FRI layer
 *   opening = u32 leaves, u32 elements per leaf, elements, u32 siblings, digests
 * </pre>
 *
 * The reader treats every byte as hostile: each length is checked against the bytes that remain
 * before anything is allocated, so an absurd length is a typed rejection, never an out-of-memory.
 */
public final class ProofFormat {
    public static final int VERSION = 1;
    static final byte[] MAGIC = {'J', 'S', 'T', 'K'};
    private static final int DIGEST = Hasher.DIGEST_BYTES;
    /** Bounds that no honest proof comes near; they keep hostile lengths from meaning anything. */
    static final int MAX_TABLES = 1 << 12;
    /** No proof within the format's bounds comes near this; readers refuse larger inputs unread. */
    public static final long MAX_PROOF_BYTES = 1L << 30;
    static final int MAX_LOG_HEIGHT = 28;
    /** A batch opening of at most 255 leaves in a tree of at most 2^31 leaves needs fewer siblings than this. */
    static final int MAX_SIBLINGS = ProofOptions.MAX_QUERIES * 31;

    private ProofFormat() {}

    // ------------------------------------------------------------------ writing

    /** The proof's bytes. */
    public static byte[] write(Proof proof) {
        return writeWithSizes(proof).bytes();
    }

    /** Bytes plus how many of them each part takes (for inspect). */
    public record Written(byte[] bytes, ProofSizes sizes) {}

    public static Written writeWithSizes(Proof proof) {
        Out out = new Out();
        ProofSizes sizes = new ProofSizes();
        ProofOptions o = proof.options();
        out.bytes(MAGIC);
        out.u16(VERSION);
        out.u8(o.logBlowup());
        out.u8(o.queries());
        out.u8(o.grindingBits());
        out.u8(o.logFoldingFactor());
        out.u8(o.logFinalDegree());
        out.u8(Hashers.byName(o.hash()).id());
        out.u8(o.requiredSecurityBits());
        out.u16(proof.tables().size());
        for (Proof.TableHeader t : proof.tables()) {
            out.string(t.name());
            out.string(t.airName());
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
        sizes.add(null, "header", out.size());
        int mark = out.size();
        for (byte[] root : proof.mainRoots()) {
            out.bytes(root);
        }
        sizes.add(null, "main roots", out.size() - mark);
        for (int i = 0; i < proof.tableProofs().size(); i++) {
            String table = proof.tables().get(i).name();
            Out section = new Out();
            writeTable(section, proof.tableProofs().get(i), table, sizes);
            out.u32(section.size());
            sizes.add(table, "section length", 4);
            out.bytes(section.toByteArray());
        }
        return new Written(out.toByteArray(), sizes);
    }

    private static void writeTable(Out out, Proof.TableProof p, String table, ProofSizes sizes) {
        int mark = out.size();
        out.u8(p.auxRoot() == null ? 0 : 1);
        if (p.auxRoot() != null) {
            out.bytes(p.auxRoot());
            out.ext(p.busSum());
        }
        out.bytes(p.compositionRoot());
        sizes.add(table, "aux + composition roots", out.size() - mark);
        mark = out.size();
        OodFrame f = p.ood();
        for (Ext3[] part : List.of(f.preprocessedAtZ(), f.mainAtZ(), f.auxAtZ(), f.preprocessedAtZNext(), f.mainAtZNext(),
                f.auxAtZNext(), f.compositionAtZ())) {
            out.u16(part.length);
            for (Ext3 v : part) {
                out.ext(v);
            }
        }
        sizes.add(table, "out-of-domain values", out.size() - mark);
        mark = out.size();
        FriProof fri = p.fri();
        out.u8(fri.layerRoots().size());
        for (byte[] root : fri.layerRoots()) {
            out.bytes(root);
        }
        sizes.add(table, "fri layer roots", out.size() - mark);
        mark = out.size();
        Ext3[] finalCoefficients = fri.finalCoefficients();
        out.u16(finalCoefficients.length);
        for (Ext3 c : finalCoefficients) {
            out.ext(c);
        }
        sizes.add(table, "fri final polynomial", out.size() - mark);
        out.u64(p.powNonce());
        sizes.add(table, "grinding nonce", 8);
        mark = out.size();
        optionalOpening(out, p.preprocessed());
        opening(out, p.main());
        optionalOpening(out, p.aux());
        opening(out, p.composition());
        sizes.add(table, "trace openings", out.size() - mark);
        mark = out.size();
        for (FriProof.LayerOpening layer : fri.openings()) {
            opening(out, new Proof.TreeOpening(layer.leafValues(), layer.siblings()));
        }
        sizes.add(table, "fri openings", out.size() - mark);
    }

    private static void optionalOpening(Out out, Proof.TreeOpening opening) {
        out.u8(opening == null ? 0 : 1);
        if (opening != null) {
            opening(out, opening);
        }
    }

    private static void opening(Out out, Proof.TreeOpening opening) {
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

    /** Byte counts per part, over the whole proof and per table. */
    public static final class ProofSizes {
        private final Map<String, Long> totals = new LinkedHashMap<>();
        private final Map<String, Map<String, Long>> perTable = new LinkedHashMap<>();

        void add(String table, String part, long bytes) {
            totals.merge(part, bytes, Long::sum);
            if (table != null) {
                perTable.computeIfAbsent(table, t -> new LinkedHashMap<>()).merge(part, bytes, Long::sum);
            }
        }

        public Map<String, Long> totals() {
            return totals;
        }

        public Map<String, Map<String, Long>> perTable() {
            return perTable;
        }
    }

    /** A growable little-endian byte buffer. */
    private static final class Out extends ByteArrayOutputStream {
        void u8(int v) {
            write(v);
        }

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

        void ext(Ext3 v) {
            u64(v.c0());
            u64(v.c1());
            u64(v.c2());
        }

        void bytes(byte[] b) {
            write(b, 0, b.length);
        }

        void string(String s) {
            byte[] b = s.getBytes(StandardCharsets.UTF_8);
            if (b.length > 0xFFFF) {
                throw new IllegalArgumentException("name too long for the proof format: " + s.length() + " characters");
            }
            u16(b.length);
            bytes(b);
        }
    }

    // ------------------------------------------------------------------ reading

    /**
     * Parses a proof.
     *
     * @throws ProofRejectedException (MALFORMED or UNSUPPORTED) naming the byte offset of the problem
     */
    public static Proof read(byte[] bytes) throws ProofRejectedException {
        return read(bytes, null);
    }

    /** Parses and, when {@code sizes} is given, records the bytes per part. */
    public static Proof read(byte[] bytes, ProofSizes sizes) throws ProofRejectedException {
        if (bytes.length > MAX_PROOF_BYTES) {
            throw new ProofRejectedException(ProofRejectedException.Reason.MALFORMED, null, bytes.length + " bytes is more than any proof ("
                    + MAX_PROOF_BYTES + ")");
        }
        In in = new In(bytes);
        byte[] magic = in.bytes(4, "magic");
        if (!java.util.Arrays.equals(magic, MAGIC)) {
            throw new ProofRejectedException(ProofRejectedException.Reason.MALFORMED, null,
                    "not a jstark proof: the file does not start with \"JSTK\" (byte offset 0)");
        }
        int version = in.u16("version");
        if (version != VERSION) {
            throw new ProofRejectedException(ProofRejectedException.Reason.UNSUPPORTED, null,
                    "proof format version " + version + " is not supported (this verifier reads version " + VERSION + ")");
        }
        ProofOptions options = readOptions(in);
        int tableCount = in.u16("table count");
        if (tableCount == 0 || tableCount > MAX_TABLES) {
            throw in.malformed("table count " + tableCount + " out of range 1.." + MAX_TABLES);
        }
        List<Proof.TableHeader> tables = new ArrayList<>(tableCount);
        for (int i = 0; i < tableCount; i++) {
            String name = in.string("table " + i + " name");
            String air = in.string("table " + i + " air name");
            int logHeight = in.u8("table " + i + " height");
            if (logHeight < 1 || logHeight > MAX_LOG_HEIGHT) {
                throw in.malformed("table '" + name + "' height 2^" + logHeight + " out of range 2^1..2^" + MAX_LOG_HEIGHT);
            }
            int publicCount = in.u16("public input count");
            in.require((long) publicCount * 8, "public inputs of table '" + name + "'");
            long[] publicInputs = new long[publicCount];
            for (int k = 0; k < publicCount; k++) {
                publicInputs[k] = in.field("public input");
            }
            byte[] preprocessed = in.flag("preprocessed flag") ? in.bytes(DIGEST, "preprocessed root") : null;
            tables.add(new Proof.TableHeader(name, air, logHeight, publicInputs, preprocessed));
        }
        if (sizes != null) {
            sizes.add(null, "header", in.position());
        }
        int mark = in.position();
        List<byte[]> mainRoots = new ArrayList<>(tableCount);
        for (int i = 0; i < tableCount; i++) {
            mainRoots.add(in.bytes(DIGEST, "main root"));
        }
        if (sizes != null) {
            sizes.add(null, "main roots", in.position() - mark);
        }
        List<Proof.TableProof> proofs = new ArrayList<>(tableCount);
        for (int i = 0; i < tableCount; i++) {
            String table = tables.get(i).name();
            int length = in.u32("section length of table '" + table + "'");
            in.require(length, "section of table '" + table + "'");
            int end = in.position() + length;
            proofs.add(readTable(in, table, sizes));
            if (in.position() != end) {
                throw in.malformed("section of table '" + table + "' declares " + length + " bytes but holds "
                        + (in.position() - (end - length)));
            }
            if (sizes != null) {
                sizes.add(table, "section length", 4);
            }
        }
        if (in.remaining() != 0) {
            throw in.malformed(in.remaining() + " unexpected bytes after the last table");
        }
        return new Proof(options, tables, mainRoots, proofs);
    }

    private static ProofOptions readOptions(In in) throws ProofRejectedException {
        int logBlowup = in.u8("blowup");
        int queries = in.u8("queries");
        int grinding = in.u8("grinding bits");
        int logFolding = in.u8("folding factor");
        int logFinal = in.u8("final degree");
        int hashId = in.u8("hash id");
        int security = in.u8("required security");
        Optional<Hasher> hasher = Hashers.findById(hashId);
        if (hasher.isEmpty()) {
            throw new ProofRejectedException(ProofRejectedException.Reason.UNSUPPORTED, null, "unknown hash id " + hashId
                    + " at byte offset " + (in.position() - 2));
        }
        try {
            return new ProofOptions(logBlowup, queries, grinding, logFolding, logFinal, hasher.get().name(), security);
        } catch (InvalidOptionsException e) {
            throw new ProofRejectedException(ProofRejectedException.Reason.MALFORMED, null, "options at byte offset 6: "
                    + e.getMessage());
        }
    }

    private static Proof.TableProof readTable(In in, String table, ProofSizes sizes) throws ProofRejectedException {
        int mark = in.position();
        byte[] auxRoot = null;
        Ext3 busSum = null;
        if (in.flag("aux flag")) {
            auxRoot = in.bytes(DIGEST, "aux root");
            busSum = in.ext("bus sum");
        }
        byte[] compositionRoot = in.bytes(DIGEST, "composition root");
        record(sizes, table, "aux + composition roots", in.position() - mark);
        mark = in.position();
        Ext3[][] ood = new Ext3[7][];
        for (int k = 0; k < 7; k++) {
            int count = in.u16("out-of-domain value count");
            in.require((long) count * Ext3.BYTES, "out-of-domain values");
            ood[k] = new Ext3[count];
            for (int j = 0; j < count; j++) {
                ood[k][j] = in.ext("out-of-domain value");
            }
        }
        OodFrame frame = new OodFrame(ood[0], ood[1], ood[2], ood[3], ood[4], ood[5], ood[6]);
        record(sizes, table, "out-of-domain values", in.position() - mark);
        mark = in.position();
        int layers = in.u8("FRI layer count");
        in.require((long) layers * DIGEST, "FRI layer roots");
        List<byte[]> layerRoots = new ArrayList<>(layers);
        for (int l = 0; l < layers; l++) {
            layerRoots.add(in.bytes(DIGEST, "FRI layer root"));
        }
        record(sizes, table, "fri layer roots", in.position() - mark);
        mark = in.position();
        int finalCount = in.u16("final coefficient count");
        in.require((long) finalCount * Ext3.BYTES, "final coefficients");
        Ext3[] finalCoefficients = new Ext3[finalCount];
        for (int j = 0; j < finalCount; j++) {
            finalCoefficients[j] = in.ext("final coefficient");
        }
        record(sizes, table, "fri final polynomial", in.position() - mark);
        long nonce = in.u64("grinding nonce");
        record(sizes, table, "grinding nonce", 8);
        mark = in.position();
        Proof.TreeOpening preprocessed = in.flag("preprocessed opening flag") ? readOpening(in, "preprocessed") : null;
        Proof.TreeOpening main = readOpening(in, "main");
        Proof.TreeOpening aux = in.flag("aux opening flag") ? readOpening(in, "aux") : null;
        Proof.TreeOpening composition = readOpening(in, "composition");
        record(sizes, table, "trace openings", in.position() - mark);
        mark = in.position();
        List<FriProof.LayerOpening> friOpenings = new ArrayList<>(layers);
        for (int l = 0; l < layers; l++) {
            Proof.TreeOpening o = readOpening(in, "FRI layer " + (l + 1));
            friOpenings.add(new FriProof.LayerOpening(o.leafValues(), o.siblings()));
        }
        record(sizes, table, "fri openings", in.position() - mark);
        return new Proof.TableProof(auxRoot, busSum, compositionRoot, frame, new FriProof(layerRoots, finalCoefficients, friOpenings),
                nonce, preprocessed, main, aux, composition);
    }

    private static void record(ProofSizes sizes, String table, String part, long bytes) {
        if (sizes != null) {
            sizes.add(table, part, bytes);
        }
    }

    private static Proof.TreeOpening readOpening(In in, String what) throws ProofRejectedException {
        int leaves = in.u32(what + " opened leaf count");
        int perLeaf = in.u32(what + " elements per leaf");
        if (leaves < 0 || perLeaf < 0) {
            throw in.malformed(what + " opening has a negative count");
        }
        if (leaves > ProofOptions.MAX_QUERIES) {
            // every opened leaf is a distinct query, so no honest opening has more
            throw in.malformed(what + " opening has " + leaves + " leaves, more than the " + ProofOptions.MAX_QUERIES + " queries allowed");
        }
        if (perLeaf == 0 && leaves != 0) {
            // an empty leaf costs no bytes, so the length check below could not bound the leaf count
            throw in.malformed(what + " opening has " + leaves + " leaves of no elements");
        }
        if (leaves > 0 && perLeaf > in.remaining() / 8 / leaves) {
            throw in.malformed("truncated: " + what + " opened leaves need " + leaves + " x " + perLeaf + " elements, "
                    + in.remaining() + " bytes remain");
        }
        long[][] values = new long[leaves][perLeaf];
        for (int l = 0; l < leaves; l++) {
            for (int e = 0; e < perLeaf; e++) {
                values[l][e] = in.field(what + " leaf element");
            }
        }
        int siblings = in.u32(what + " sibling count");
        if (siblings < 0 || siblings > MAX_SIBLINGS) {
            throw in.malformed(what + " opening has " + Integer.toUnsignedString(siblings) + " siblings, at most " + MAX_SIBLINGS
                    + " are possible");
        }
        in.require((long) siblings * DIGEST, what + " siblings");
        byte[][] nodes = new byte[siblings][];
        for (int s = 0; s < siblings; s++) {
            nodes[s] = in.bytes(DIGEST, what + " sibling");
        }
        return new Proof.TreeOpening(values, nodes);
    }

    /** A bounds-checked little-endian reader that reports byte offsets. */
    private static final class In {
        private final byte[] data;
        private int position;

        In(byte[] data) {
            this.data = data;
        }

        int position() {
            return position;
        }

        int remaining() {
            return data.length - position;
        }

        ProofRejectedException malformed(String message) {
            return new ProofRejectedException(ProofRejectedException.Reason.MALFORMED, null, message + " (byte offset " + position + ")");
        }

        void require(long bytes, String what) throws ProofRejectedException {
            if (bytes < 0 || bytes > remaining()) {
                throw malformed("truncated: " + what + " need " + bytes + " bytes, " + remaining() + " remain");
            }
        }

        int u8(String what) throws ProofRejectedException {
            require(1, what);
            return data[position++] & 0xFF;
        }

        boolean flag(String what) throws ProofRejectedException {
            int v = u8(what);
            if (v > 1) {
                position--;
                throw malformed(what + " must be 0 or 1, found " + v);
            }
            return v == 1;
        }

        int u16(String what) throws ProofRejectedException {
            require(2, what);
            int v = (data[position] & 0xFF) | (data[position + 1] & 0xFF) << 8;
            position += 2;
            return v;
        }

        int u32(String what) throws ProofRejectedException {
            require(4, what);
            int v = 0;
            for (int i = 3; i >= 0; i--) {
                v = (v << 8) | (data[position + i] & 0xFF);
            }
            position += 4;
            return v;
        }

        long u64(String what) throws ProofRejectedException {
            require(8, what);
            long v = Goldilocks.decodeRaw(data, position);
            position += 8;
            return v;
        }

        long field(String what) throws ProofRejectedException {
            int at = position;
            long v = u64(what);
            if (!Goldilocks.isCanonical(v)) {
                throw new ProofRejectedException(ProofRejectedException.Reason.MALFORMED, null, what + " is not a canonical field element"
                        + " (byte offset " + at + ")");
            }
            return v;
        }

        Ext3 ext(String what) throws ProofRejectedException {
            return new Ext3(field(what), field(what), field(what));
        }

        byte[] bytes(int n, String what) throws ProofRejectedException {
            require(n, what);
            byte[] out = java.util.Arrays.copyOfRange(data, position, position + n);
            position += n;
            return out;
        }

        String string(String what) throws ProofRejectedException {
            int length = u16(what);
            require(length, what);
            try {
                String s = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                        .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(data, position, length)).toString();
                position += length;
                return s;
            } catch (CharacterCodingException e) {
                throw malformed(what + " is not valid UTF-8");
            }
        }
    }
}
