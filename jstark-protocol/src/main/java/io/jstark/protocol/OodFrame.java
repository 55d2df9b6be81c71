package io.jstark.protocol;

import io.jstark.math.field.Ext3;
import java.util.ArrayList;
import java.util.List;

/**
 * The out-of-domain openings of one table: every committed base column evaluated at zeta (and the trace
 * columns also at zeta * w, the next row). Extension columns (aux, composition parts) are committed as
 * three base columns each and opened limb by limb.
 *
 * @param preprocessedAtZ the preprocessed columns at zeta
 * @param mainAtZ the main columns at zeta
 * @param auxAtZ the aux columns' limbs at zeta
 * @param preprocessedAtZNext the preprocessed columns at zeta * w
 * @param mainAtZNext the main columns at zeta * w
 * @param auxAtZNext the aux columns' limbs at zeta * w
 * @param compositionAtZ the composition parts' limbs at zeta
 */
public record OodFrame(
        Ext3[] preprocessedAtZ,
        Ext3[] mainAtZ,
        Ext3[] auxAtZ,
        Ext3[] preprocessedAtZNext,
        Ext3[] mainAtZNext,
        Ext3[] auxAtZNext,
        Ext3[] compositionAtZ) {

    /** {@return the transcript and proof order of the values} */
    public Ext3[] flatten() {
        List<Ext3> all = new ArrayList<>();
        for (Ext3[] part : List.of(
                preprocessedAtZ, mainAtZ, auxAtZ, preprocessedAtZNext, mainAtZNext, auxAtZNext, compositionAtZ)) {
            all.addAll(List.of(part));
        }
        return all.toArray(new Ext3[0]);
    }

    /** Total number of values. */
    public int size() {
        return preprocessedAtZ.length
                + mainAtZ.length
                + auxAtZ.length
                + preprocessedAtZNext.length
                + mainAtZNext.length
                + auxAtZNext.length
                + compositionAtZ.length;
    }
}
