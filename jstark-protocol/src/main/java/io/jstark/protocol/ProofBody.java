package io.jstark.protocol;

import io.jstark.crypto.merkle.MerkleVerifier;
import io.jstark.fri.FriProof;
import io.jstark.math.field.Ext3;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The body of a proof, after the header ({@link ProofFormat}):
 *
 * <pre>
 * digest main root
 * u8 has aux (+ digest aux root); per table: u8 has bus sum (+ ext bus sum)
 * digest composition root
 * per table: ood frame, 7 x (u16 count + ext values) in OodFrame order
 * fri: u8 committed layers + digests; u16 final coefficients + ext values; u64 grinding nonce
 * per table: u8 has preprocessed opening (+ opening of its pinned tree)
 * phase openings main, aux (u8 present first), composition: u16 member tables;
 *     per member: u32 blocks, u32 elements per block, elements; then u32 siblings + digests
 * per committed FRI layer: opening
 * opening = u32 leaves, u32 elements per leaf, elements, u32 siblings, digests
 * </pre>
 *
 * Every count is checked against what the bytes still allowed (the limit from the verifying key and the
 * header) before anything is allocated, and against the lifted geometry of the header's heights.
 */
final class ProofBody {
    private static final int DIGEST = ProofFormat.DIGEST;

    private ProofBody() {}

    static void writeBody(ProofOutput out, Proof p, ProofSizes sizes) {
        int mark = out.size();
        out.bytes(p.mainRoot());
        out.u8(p.auxRoot() == null ? 0 : 1);
        if (p.auxRoot() != null) {
            out.bytes(p.auxRoot());
        }
        for (Ext3 sum : p.busSums()) {
            out.u8(sum == null ? 0 : 1);
            if (sum != null) {
                out.ext(sum);
            }
        }
        out.bytes(p.compositionRoot());
        sizes.add(null, "phase roots and bus sums", out.size() - mark);
        for (int i = 0; i < p.frames().size(); i++) {
            mark = out.size();
            OodFrame f = p.frames().get(i);
            for (Ext3[] part : List.of(
                    f.preprocessedAtZ(),
                    f.mainAtZ(),
                    f.auxAtZ(),
                    f.preprocessedAtZNext(),
                    f.mainAtZNext(),
                    f.auxAtZNext(),
                    f.compositionAtZ())) {
                out.u16(part.length);
                for (Ext3 v : part) {
                    out.ext(v);
                }
            }
            sizes.add(p.tables().get(i).name(), "out-of-domain values", out.size() - mark);
        }
        mark = out.size();
        FriProof fri = p.fri();
        out.u8(fri.layerRoots().size());
        for (byte[] root : fri.layerRoots()) {
            out.bytes(root);
        }
        Ext3[] finalCoefficients = fri.finalCoefficients();
        out.u16(finalCoefficients.length);
        for (Ext3 c : finalCoefficients) {
            out.ext(c);
        }
        out.u64(p.powNonce());
        sizes.add(null, "fri roots, final polynomial, nonce", out.size() - mark);
        for (int i = 0; i < p.preprocessed().size(); i++) {
            mark = out.size();
            ProofWriter.optionalOpening(out, p.preprocessed().get(i));
            sizes.add(p.tables().get(i).name(), "preprocessed opening", out.size() - mark);
        }
        writePhase(out, p, p.main(), "main", sizes);
        out.u8(p.aux() == null ? 0 : 1);
        sizes.add(null, "aux phase values", 1); // its flag
        if (p.aux() != null) {
            writePhase(out, p, p.aux(), "aux", sizes);
        }
        writePhase(out, p, p.composition(), "composition", sizes);
        mark = out.size();
        for (FriProof.LayerOpening layer : fri.openings()) {
            ProofWriter.opening(out, new Proof.TreeOpening(layer.leafValues(), layer.siblings()));
        }
        sizes.add(null, "fri openings", out.size() - mark);
    }

    private static void writePhase(ProofOutput out, Proof p, Proof.PhaseOpening phase, String name, ProofSizes sizes) {
        int mark = out.size();
        out.u16(phase.blocks().size());
        sizes.add(null, name + " phase values", out.size() - mark);
        List<String> members =
                members(name, p.tables(), p.busSums(), phase.blocks().size());
        for (int m = 0; m < phase.blocks().size(); m++) {
            mark = out.size();
            long[][] blocks = phase.blocks().get(m);
            out.u32(blocks.length);
            out.u32(blocks.length == 0 ? 0 : blocks[0].length);
            for (long[] block : blocks) {
                for (long v : block) {
                    out.u64(v);
                }
            }
            sizes.add(members.get(m), name + " phase values", out.size() - mark);
        }
        mark = out.size();
        out.u32(phase.siblings().length);
        for (byte[] s : phase.siblings()) {
            out.bytes(s);
        }
        sizes.add(null, name + " phase siblings", out.size() - mark);
    }

    static Proof readBody(ProofInput in, ProofOptions options, List<Proof.TableHeader> tables, ProofSizes sizes)
            throws ProofRejectedException, IOException {
        LiftedDomain domain = LiftedDomain.of(options, tables);
        int count = tables.size();
        long mark = in.position();
        byte[] mainRoot = in.bytes(DIGEST, "main root");
        byte[] auxRoot = in.flag("aux flag") ? in.bytes(DIGEST, "aux root") : null;
        List<Ext3> busSums = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            busSums.add(in.flag("bus sum flag") ? in.ext("bus sum") : null);
        }
        byte[] compositionRoot = in.bytes(DIGEST, "composition root");
        sizes.add(null, "phase roots and bus sums", in.position() - mark);
        List<OodFrame> frames = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            mark = in.position();
            Ext3[][] ood = new Ext3[7][];
            for (int k = 0; k < 7; k++) {
                ood[k] = in.exts(in.u16("out-of-domain value count"), "out-of-domain values");
            }
            frames.add(new OodFrame(ood[0], ood[1], ood[2], ood[3], ood[4], ood[5], ood[6]));
            sizes.add(tables.get(i).name(), "out-of-domain values", in.position() - mark);
        }
        mark = in.position();
        SectionShape shape = SectionShape.of(options, domain.logMaxHeight());
        int layers = in.u8("FRI layer count");
        if (layers > shape.committedLayers()) {
            throw in.malformed("the proof has " + layers + " committed FRI layers, at most " + shape.committedLayers()
                    + " are possible at its tallest height");
        }
        List<byte[]> layerRoots = new ArrayList<>(layers);
        for (int l = 0; l < layers; l++) {
            layerRoots.add(in.bytes(DIGEST, "FRI layer root"));
        }
        int finalCount = in.u16("final coefficient count");
        if (finalCount > shape.finalCoefficients()) {
            throw in.malformed("the proof has " + finalCount + " final FRI coefficients, at most "
                    + shape.finalCoefficients() + " are possible at its tallest height");
        }
        Ext3[] finalCoefficients = in.exts(finalCount, "final coefficients");
        long nonce = in.u64("grinding nonce");
        sizes.add(null, "fri roots, final polynomial, nonce", in.position() - mark);
        List<Proof.TreeOpening> preprocessed = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            mark = in.position();
            String table = tables.get(i).name();
            SectionShape own = SectionShape.of(options, domain.logHeight(i));
            preprocessed.add(
                    in.flag("preprocessed opening flag")
                            ? ProofReader.readOpening(in, "preprocessed of table '" + table + "'", own, own.logCosets())
                            : null);
            sizes.add(table, "preprocessed opening", in.position() - mark);
        }
        Proof.PhaseOpening main = readPhase(in, "main", options, domain, tables, busSums, sizes);
        boolean hasAux = in.flag("aux opening flag");
        sizes.add(null, "aux phase values", 1);
        Proof.PhaseOpening aux = hasAux ? readPhase(in, "aux", options, domain, tables, busSums, sizes) : null;
        Proof.PhaseOpening composition = readPhase(in, "composition", options, domain, tables, busSums, sizes);
        mark = in.position();
        List<FriProof.LayerOpening> friOpenings = new ArrayList<>(layers);
        for (int l = 1; l <= layers; l++) {
            Proof.TreeOpening o = ProofReader.readOpening(in, "FRI layer " + l, shape, shape.logFriLeaves(l));
            friOpenings.add(new FriProof.LayerOpening(o.leafValues(), o.siblings()));
        }
        sizes.add(null, "fri openings", in.position() - mark);
        return new Proof(
                options,
                tables,
                mainRoot,
                auxRoot,
                busSums,
                compositionRoot,
                frames,
                new FriProof(layerRoots, finalCoefficients, friOpenings),
                nonce,
                preprocessed,
                main,
                aux,
                composition);
    }

    private static Proof.PhaseOpening readPhase(
            ProofInput in,
            String what,
            ProofOptions options,
            LiftedDomain domain,
            List<Proof.TableHeader> tables,
            List<Ext3> busSums,
            ProofSizes sizes)
            throws ProofRejectedException, IOException {
        long mark = in.position();
        int members = in.u16(what + " phase table count");
        if (members == 0 || members > tables.size()) {
            throw in.malformed(what + " phase opens " + members + (members == 1 ? " table" : " tables")
                    + ", the proof has " + tables.size());
        }
        sizes.add(null, what + " phase values", in.position() - mark);
        List<String> names = members(what, tables, busSums, members);
        int queries = options.queries();
        List<long[][]> blocks = new ArrayList<>(members);
        for (int m = 0; m < members; m++) {
            mark = in.position();
            int count = in.u32(what + " opened block count");
            int perBlock = in.u32(what + " elements per block");
            if (count < 0 || perBlock < 0) {
                throw in.malformed(what + " phase opening has a negative count");
            }
            if (count > queries) {
                // every opened block is a distinct query's
                throw in.malformed(
                        what + " phase opens " + count + " blocks of one table, at most " + queries + " are possible");
            }
            if (perBlock == 0 && count != 0) {
                throw in.malformed(what + " phase opening has " + count + " blocks of no elements");
            }
            in.require(8L * count * perBlock, what + " opened blocks (" + count + " x " + perBlock + " elements)");
            long[][] values = new long[count][];
            for (int b = 0; b < count; b++) {
                long[] block = new long[perBlock];
                for (int e = 0; e < perBlock; e++) {
                    block[e] = in.field(what + " block element");
                }
                values[b] = block;
            }
            blocks.add(values);
            sizes.add(names.get(m), what + " phase values", in.position() - mark);
        }
        mark = in.position();
        int siblings = in.u32(what + " sibling count");
        long most = MerkleVerifier.maxSiblings(
                (int) Math.min(queries, 1L << domain.logQueryCosets()), domain.logQueryCosets());
        if (siblings < 0 || siblings > most) {
            throw in.malformed(what + " phase opening has " + Integer.toUnsignedString(siblings) + " siblings, at most "
                    + most + " are possible");
        }
        in.require((long) siblings * DIGEST, what + " siblings");
        byte[][] nodes = new byte[siblings][];
        for (int s = 0; s < siblings; s++) {
            nodes[s] = in.bytes(DIGEST, what + " sibling");
        }
        sizes.add(null, what + " phase siblings", in.position() - mark);
        return new Proof.PhaseOpening(blocks, nodes);
    }

    /**
     * The table each member of a phase opening belongs to, for the bytes per table: every table in the main
     * and composition phases, the tables with a bus sum in the aux phase. Where the count disagrees (a
     * hostile proof, refused later), the members are attributed to no table.
     */
    private static List<String> members(String phase, List<Proof.TableHeader> tables, List<Ext3> busSums, int count) {
        List<String> names = new ArrayList<>(count);
        for (int j = 0; j < tables.size(); j++) {
            if (!phase.equals("aux") || busSums.get(j) != null) {
                names.add(tables.get(j).name());
            }
        }
        if (names.size() != count) {
            names = new ArrayList<>(java.util.Collections.nCopies(count, (String) null));
        }
        return names;
    }
}
