package io.jstark.air.program;

/** Where an instruction reads a value: a varying register (per row) or a uniform scalar. */
enum Operand {
    /** Base-field value per row, in a base register. */
    VARYING_BASE,
    /** Extension value per row, in an extension register (three arrays). */
    VARYING_EXT,
    /** One base-field value for every row. */
    UNIFORM_BASE,
    /** One extension value for every row. */
    UNIFORM_EXT;

    boolean varying() {
        return this == VARYING_BASE || this == VARYING_EXT;
    }

    boolean extension() {
        return this == VARYING_EXT || this == UNIFORM_EXT;
    }

    /** {@return the base-field elements (limbs) of one value: 3 for an extension value, else 1} */
    int limbs() {
        return extension() ? 3 : 1;
    }
}
