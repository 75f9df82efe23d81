package dev.basalt.sail.config;

import java.util.Locale;

/**
 * The rule set a Basalt store keeps materialized in its inferred statements: none, RDFS, or RDFS
 * plus the OWL 2 RL rules listed in docs/sail.md ("Reasoning"). Immutable.
 */
public enum InferenceMode {
    NONE("none"), RDFS("rdfs"), OWL_RL("owl-rl");

    private final String label;

    InferenceMode(String label) {
        this.label = label;
    }

    /** The configuration value: {@code none}, {@code rdfs} or {@code owl-rl}. */
    public String label() {
        return label;
    }

    /** Parses a configuration value (case-insensitive). */
    public static InferenceMode parse(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        for (InferenceMode m : values()) {
            if (m.label.equals(t)) {
                return m;
            }
        }
        throw new IllegalArgumentException("inference must be none, rdfs or owl-rl, found '" + text + "'");
    }
}
