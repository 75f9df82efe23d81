package dev.basalt.bench.bsbm;

import java.util.SplittableRandom;

/**
 * The word list the BSBM text values are drawn from. The official generator reads an English
 * dictionary; this one builds {@value #SIZE} pronounceable lower-case words from syllables with a
 * fixed seed, so labels and texts have realistic lengths and a stable vocabulary for the regex
 * query (Q6) without shipping a dictionary file.
 *
 * <p>Immutable: the word list is built once by the class initializer and only read after, so any thread may
 * draw from it with a SplittableRandom of its own.
 */
final class Words {

	static final int SIZE = 8000;
	private static final String[] ONSETS = { "b", "c", "d", "f", "g", "h", "k", "l", "m", "n", "p", "r", "s",
			"t", "v", "w", "z", "br", "ch", "cl", "dr", "gr", "pl", "st", "tr", "sh", "th" };
	private static final String[] NUCLEI = { "a", "e", "i", "o", "u", "ai", "ea", "io", "ou", "y" };
	private static final String[] CODAS = { "", "", "n", "r", "s", "t", "l", "m", "x", "ck", "nd", "st" };
	private static final String[] WORDS = build();

	private Words() {
	}

	private static String[] build() {
		SplittableRandom r = new SplittableRandom(20081129L);
		java.util.LinkedHashSet<String> words = new java.util.LinkedHashSet<>();
		while (words.size() < SIZE) {
			int syllables = 1 + r.nextInt(4);
			StringBuilder w = new StringBuilder();
			for (int i = 0; i < syllables; i++) {
				w.append(ONSETS[r.nextInt(ONSETS.length)]).append(NUCLEI[r.nextInt(NUCLEI.length)]);
			}
			w.append(CODAS[r.nextInt(CODAS.length)]);
			words.add(w.toString());
		}
		return words.toArray(new String[0]);
	}

	static String word(SplittableRandom r) {
		return WORDS[r.nextInt(SIZE)];
	}

	/** Between {@code min} and {@code max} words separated by single spaces. */
	static String text(SplittableRandom r, int min, int max) {
		int n = min + r.nextInt(max - min + 1);
		StringBuilder sb = new StringBuilder(n * 8);
		for (int i = 0; i < n; i++) {
			if (i > 0) {
				sb.append(' ');
			}
			sb.append(word(r));
		}
		return sb.toString();
	}
}
