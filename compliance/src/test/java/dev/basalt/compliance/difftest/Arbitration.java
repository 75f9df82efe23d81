package dev.basalt.compliance.difftest;

/**
 * Weighs a disagreement between Basalt and MemoryStore with a third engine's answer (Jena ARQ,
 * {@link JenaReference}). Thread-safe: stateless.
 */
final class Arbitration {
    private Arbitration() {
    }

    /** Whether two answers are the same: both failed, or the same rows (terms, or values where spellings differ). */
    static boolean same(Answer a, Answer b) {
        if (a.skip() || b.skip()) {
            return false;
        }
        if (a.error() != null || b.error() != null) {
            return a.error() != null && b.error() != null;
        }
        return a.rows().equals(b.rows()) || a.values().equals(b.values());
    }

    static String verdict(Answer memory, Answer basalt, Answer jena) {
        if (jena.skip()) {
            return "skipped";
        }
        boolean withBasalt = same(jena, basalt);
        boolean withMemory = same(jena, memory);
        String rows = jena.error() != null ? jena.error() : jena.rows().size() + " rows";
        if (withBasalt && !withMemory) {
            return "as Basalt (" + rows + ")";
        }
        if (withMemory && !withBasalt) {
            return "as MemoryStore (" + rows + ")";
        }
        return "neither (" + rows + ")";
    }
}
