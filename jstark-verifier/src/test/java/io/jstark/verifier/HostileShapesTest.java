package io.jstark.verifier;

import static org.assertj.core.api.Assertions.assertThat;

import io.jstark.fri.FriProof;
import io.jstark.math.field.Ext3;
import io.jstark.protocol.OodFrame;
import io.jstark.protocol.Proof;
import io.jstark.protocol.ProofFormat;
import io.jstark.protocol.ProofRejectedException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.GenerationMode;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * A hand-built proof with one part of another shape than its definitions give (a count or a width one or two off, a
 * part present that should be absent or the reverse) is rejected by a named check, never by the last-resort guard:
 * the shapes a well-formed writer can produce, which the reader alone cannot refuse.
 */
class HostileShapesTest {
    private static final List<HandBuiltProof> PROOFS =
            List.of(TinyTables.counterProof(), TinyTables.stampedProof(), TinyTables.threeTablesProof(1));

    enum Part {
        FRAME_VALUES,
        BUS_SUMS,
        AUX_ROOT,
        AUX_OPENING,
        PREPROCESSED_LEAVES,
        PREPROCESSED_WIDTH,
        PREPROCESSED_SIBLINGS,
        MAIN_MEMBERS,
        MAIN_BLOCKS,
        MAIN_WIDTH,
        MAIN_SIBLINGS,
        COMPOSITION_WIDTH,
        FRI_ROOTS,
        FRI_FINAL,
        FRI_LEAVES,
        FRI_WIDTH,
        FRI_SIBLINGS,
        FRI_LAYERS
    }

    /** Every combination is tried: 3 proofs x 18 parts x 5 changes x 3 tables, 810 in all. */
    @Property(tries = 1000, generation = GenerationMode.EXHAUSTIVE)
    void aPartOfAnotherShapeIsRejectedByANamedCheck(
            @ForAll @IntRange(min = 0, max = 2) int proof,
            @ForAll Part part,
            @ForAll @IntRange(min = -2, max = 2) int delta,
            @ForAll @IntRange(min = 0, max = 2) int table) {
        HandBuiltProof built = PROOFS.get(proof);
        Proof p = built.proof();
        int j = table % p.tables().size();
        int by = delta == 0 ? 3 : delta;
        Proof changed = ProofEdit.of(p, edit -> {
            switch (part) {
                case FRAME_VALUES ->
                    edit.frames = replaced(p.frames(), j, frame(p.frames().get(j), by));
                case BUS_SUMS ->
                    edit.busSums = replaced(p.busSums(), j, p.busSums().get(j) == null ? Ext3.ONE : null);
                case AUX_ROOT -> edit.auxRoot = p.auxRoot() == null ? new byte[32] : null;
                case AUX_OPENING -> edit.aux = p.aux() == null ? p.main() : null;
                case PREPROCESSED_LEAVES ->
                    edit.preprocessed =
                            replaced(p.preprocessed(), j, tree(p.preprocessed().get(j), by, 0, 0));
                case PREPROCESSED_WIDTH ->
                    edit.preprocessed =
                            replaced(p.preprocessed(), j, tree(p.preprocessed().get(j), 0, by, 0));
                case PREPROCESSED_SIBLINGS ->
                    edit.preprocessed =
                            replaced(p.preprocessed(), j, tree(p.preprocessed().get(j), 0, 0, by));
                case MAIN_MEMBERS ->
                    edit.main = new Proof.PhaseOpening(
                            resized(p.main().blocks(), by), p.main().siblings());
                case MAIN_BLOCKS -> edit.main = phase(p.main(), j, by, 0, 0);
                case MAIN_WIDTH -> edit.main = phase(p.main(), j, 0, by, 0);
                case MAIN_SIBLINGS -> edit.main = phase(p.main(), j, 0, 0, by);
                case COMPOSITION_WIDTH -> edit.composition = phase(p.composition(), j, 0, by, 0);
                case FRI_ROOTS ->
                    edit.fri = new FriProof(
                            resized(p.fri().layerRoots(), by),
                            p.fri().finalCoefficients(),
                            p.fri().openings());
                case FRI_FINAL ->
                    edit.fri = new FriProof(
                            p.fri().layerRoots(),
                            resized(p.fri().finalCoefficients(), by),
                            p.fri().openings());
                case FRI_LEAVES, FRI_WIDTH, FRI_SIBLINGS -> edit.fri = friLayer(p.fri(), part, by);
                case FRI_LAYERS ->
                    edit.fri = new FriProof(
                            p.fri().layerRoots(),
                            p.fri().finalCoefficients(),
                            resized(p.fri().openings(), by));
            }
        });
        byte[] bytes = ProofFormat.write(changed);
        long before = StarkVerifier.lastResortRejections();
        try {
            StarkVerifier.verify(built.key(), built.statement(), bytes);
            assertThat(bytes)
                    .as("an accepted proof after changing %s by %d is the valid one", part, by)
                    .isEqualTo(built.bytes());
        } catch (ProofRejectedException e) {
            // the expected answer; which check names it depends on the part
        }
        assertThat(StarkVerifier.lastResortRejections())
                .as("last-resort rejections after changing %s by %d", part, by)
                .isEqualTo(before);
    }

    private static OodFrame frame(OodFrame f, int by) {
        return new OodFrame(
                f.preprocessedAtZ(),
                resized(f.mainAtZ(), by),
                f.auxAtZ(),
                f.preprocessedAtZNext(),
                f.mainAtZNext(),
                f.auxAtZNext(),
                resized(f.compositionAtZ(), by));
    }

    private static Proof.TreeOpening tree(Proof.TreeOpening o, int leaves, int width, int siblings) {
        if (o == null) {
            return new Proof.TreeOpening(new long[][] {{1}}, new byte[0][]);
        }
        return new Proof.TreeOpening(widened(resized(o.leafValues(), leaves), width), resized(o.siblings(), siblings));
    }

    private static Proof.PhaseOpening phase(Proof.PhaseOpening o, int member, int blocks, int width, int siblings) {
        int m = member % o.blocks().size();
        long[][] changed = widened(resized(o.blocks().get(m), blocks), width);
        return new Proof.PhaseOpening(replaced(o.blocks(), m, changed), resized(o.siblings(), siblings));
    }

    private static FriProof friLayer(FriProof fri, Part part, int by) {
        if (fri.openings().isEmpty()) {
            return fri;
        }
        FriProof.LayerOpening o = fri.openings().getFirst();
        FriProof.LayerOpening changed = switch (part) {
            case FRI_LEAVES -> new FriProof.LayerOpening(resized(o.leafValues(), by), o.siblings());
            case FRI_WIDTH -> new FriProof.LayerOpening(widened(o.leafValues(), by), o.siblings());
            default -> new FriProof.LayerOpening(o.leafValues(), resized(o.siblings(), by));
        };
        return new FriProof(fri.layerRoots(), fri.finalCoefficients(), replaced(fri.openings(), 0, changed));
    }

    private static <T> List<T> replaced(List<T> list, int index, T value) {
        List<T> out = new ArrayList<>(list);
        out.set(index, value);
        return out;
    }

    /** {@code by} more (copies of the last, or of a fresh element when empty) or fewer elements, never fewer than none. */
    private static <T> List<T> resized(List<T> list, int by) {
        List<T> out = new ArrayList<>(list);
        for (int k = 0; k < by && !list.isEmpty(); k++) {
            out.add(list.getLast());
        }
        for (int k = 0; k < -by && !out.isEmpty(); k++) {
            out.removeLast();
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    private static <T> T[] resized(T[] array, int by) {
        List<T> out = resized(Arrays.asList(array), by);
        return out.toArray(
                (T[]) java.lang.reflect.Array.newInstance(array.getClass().getComponentType(), 0));
    }

    private static Ext3[] resized(Ext3[] values, int by) {
        Ext3[] out = Arrays.copyOf(values, Math.max(0, values.length + by));
        Arrays.fill(out, Math.min(values.length, out.length), out.length, Ext3.ZERO);
        return out;
    }

    private static long[][] widened(long[][] rows, int by) {
        long[][] out = new long[rows.length][];
        for (int i = 0; i < rows.length; i++) {
            out[i] = Arrays.copyOf(rows[i], Math.max(1, rows[i].length + by));
        }
        return out;
    }
}
