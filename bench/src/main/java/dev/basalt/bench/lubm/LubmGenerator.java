package dev.basalt.bench.lubm;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import dev.basalt.bench.rdf.NTriplesSink;
import dev.basalt.bench.rdf.Rng;
import dev.basalt.bench.rdf.TripleCounts;

/**
 * Generates LUBM(N, seed) following the rules of the Lehigh University Benchmark's data generator
 * (UBA 1.7): 15-25 departments per university; per department 7-10 full, 10-14 associate and 8-11
 * assistant professors and 5-7 lecturers, 8-14 undergraduate and 3-4 graduate students per faculty
 * member, 10-20 research groups; each faculty member teaches 1-2 courses and 1-2 graduate courses;
 * undergraduates take 2-4 courses and graduates 1-3 graduate courses; a fifth of the undergraduates
 * and every graduate student have a professor as advisor; a fifth to a quarter of the graduate
 * students are teaching assistants and a quarter to a third research assistants; professors write
 * 15-20 (full), 10-18 (associate), 5-10 (assistant) and lecturers 0-5 publications, which graduate
 * students co-author (0-5 each); faculty degrees come from any of 1,000 universities; professor 0 of
 * each department heads it. Only explicit facts are written, as UBA does; the ontology is not needed.
 *
 * <p>One department is held in memory at a time. The stream of random numbers is this generator's
 * own, so counts are close to, not identical with, UBA's for the same N.
 *
 * <p>Thread-safe: it holds only final settings; each {@link #write} call keeps the department it builds and
 * its sink to itself, so calls on different threads (to different files) do not interfere.
 */
public final class LubmGenerator {

	public static final String UB = "http://swat.cse.lehigh.edu/onto/univ-bench.owl#";
	private static final String TYPE = NTriplesSink.RDF_TYPE;
	private static final int DEGREE_UNIVERSITIES = 1000;
	private static final int KIND_UNIVERSITY = 101;
	private static final int KIND_DEPARTMENT = 102;

	private final int universities;
	private final long seed;
	private final int maxDepartments;

	/** LUBM(universities, seed) with UBA's 15-25 departments per university. */
	public LubmGenerator(int universities, long seed) {
		this(universities, seed, Integer.MAX_VALUE);
	}

	/** As above with at most {@code maxDepartments} per university (for tiny test data). */
	public LubmGenerator(int universities, long seed, int maxDepartments) {
		if (universities < 1) {
			throw new IllegalArgumentException("LUBM needs at least one university, got " + universities);
		}
		this.universities = universities;
		this.seed = seed;
		this.maxDepartments = maxDepartments;
	}

	public TripleCounts write(Path file) {
		try (NTriplesSink out = new NTriplesSink(file)) {
			for (int u = 0; u < universities; u++) {
				String univ = university(u);
				out.iri(univ, TYPE, UB + "University");
				out.lit(univ, UB + "name", NTriplesSink.literal("University" + u));
				SplittableRandom r = Rng.of(seed, KIND_UNIVERSITY, u);
				int departments = Math.min(maxDepartments, Rng.between(r, 15, 25));
				for (int d = 0; d < departments; d++) {
					new Department(out, u, d, Rng.of(seed, KIND_DEPARTMENT, (long) u * 100 + d)).write();
				}
			}
			return out.counts();
		}
	}

	static String university(int u) {
		return "http://www.University" + u + ".edu";
	}

	/** Writes one department and everything in it. */
	private static final class Department {
		private final NTriplesSink out;
		private final SplittableRandom r;
		private final String iri;
		private final String host;
		private final int univ;
		private final List<String> professors = new ArrayList<>();
		private final List<String> faculty = new ArrayList<>();
		private final List<String> publications = new ArrayList<>();
		private int courses;
		private int graduateCourses;

		Department(NTriplesSink out, int univ, int dept, SplittableRandom r) {
			this.out = out;
			this.r = r;
			this.univ = univ;
			this.host = "Department" + dept + ".University" + univ + ".edu";
			this.iri = "http://www." + host;
		}

		void write() {
			out.iri(iri, TYPE, UB + "Department");
			out.lit(iri, UB + "name", NTriplesSink.literal(host.substring(0, host.indexOf('.'))));
			out.iri(iri, UB + "subOrganizationOf", university(univ));
			faculty("FullProfessor", Rng.between(r, 7, 10), 15, 20);
			faculty("AssociateProfessor", Rng.between(r, 10, 14), 10, 18);
			faculty("AssistantProfessor", Rng.between(r, 8, 11), 5, 10);
			faculty("Lecturer", Rng.between(r, 5, 7), 0, 5);
			for (int c = 0; c < courses; c++) {
				course("Course", c);
			}
			for (int c = 0; c < graduateCourses; c++) {
				course("GraduateCourse", c);
			}
			int undergraduates = faculty.size() * Rng.between(r, 8, 14);
			for (int i = 0; i < undergraduates; i++) {
				undergraduate(i);
			}
			int graduates = faculty.size() * Rng.between(r, 3, 4);
			int assistants = graduates / Rng.between(r, 4, 5);
			int researchAssistants = graduates / Rng.between(r, 3, 4);
			for (int i = 0; i < graduates; i++) {
				graduate(i, i < assistants, i >= graduates - researchAssistants);
			}
			int groups = Rng.between(r, 10, 20);
			for (int g = 0; g < groups; g++) {
				String group = entity("ResearchGroup", g);
				out.iri(group, TYPE, UB + "ResearchGroup");
				out.iri(group, UB + "subOrganizationOf", iri);
			}
		}

		private String entity(String kind, int i) {
			return iri + "/" + kind + i;
		}

		private void person(String s, String kind, int i) {
			out.lit(s, UB + "name", NTriplesSink.literal(kind + i));
			out.lit(s, UB + "emailAddress", NTriplesSink.literal(kind + i + "@" + host));
			out.lit(s, UB + "telephone", NTriplesSink.literal("xxx-xxx-xxxx"));
		}

		private void faculty(String kind, int count, int minPublications, int maxPublications) {
			for (int i = 0; i < count; i++) {
				String s = entity(kind, i);
				out.iri(s, TYPE, UB + kind);
				person(s, kind, i);
				if ("FullProfessor".equals(kind) && i == 0) {
					out.iri(s, UB + "headOf", iri);
				} else {
					out.iri(s, UB + "worksFor", iri);
				}
				out.lit(s, UB + "researchInterest", NTriplesSink.literal("Research" + r.nextInt(30)));
				out.iri(s, UB + "undergraduateDegreeFrom", university(r.nextInt(DEGREE_UNIVERSITIES)));
				out.iri(s, UB + "mastersDegreeFrom", university(r.nextInt(DEGREE_UNIVERSITIES)));
				out.iri(s, UB + "doctoralDegreeFrom", university(r.nextInt(DEGREE_UNIVERSITIES)));
				for (int c = Rng.between(r, 1, 2); c > 0; c--) {
					out.iri(s, UB + "teacherOf", entity("Course", courses++));
				}
				for (int c = Rng.between(r, 1, 2); c > 0; c--) {
					out.iri(s, UB + "teacherOf", entity("GraduateCourse", graduateCourses++));
				}
				int pubs = Rng.between(r, minPublications, maxPublications);
				for (int p = 0; p < pubs; p++) {
					String pub = s + "/Publication" + p;
					out.iri(pub, TYPE, UB + "Publication");
					out.lit(pub, UB + "name", NTriplesSink.literal("Publication" + p));
					out.iri(pub, UB + "publicationAuthor", s);
					publications.add(pub);
				}
				faculty.add(s);
				if (!"Lecturer".equals(kind)) {
					professors.add(s);
				}
			}
		}

		private void course(String kind, int i) {
			String s = entity(kind, i);
			out.iri(s, TYPE, UB + kind);
			out.lit(s, UB + "name", NTriplesSink.literal(kind + i));
		}

		private void undergraduate(int i) {
			String s = entity("UndergraduateStudent", i);
			out.iri(s, TYPE, UB + "UndergraduateStudent");
			person(s, "UndergraduateStudent", i);
			out.iri(s, UB + "memberOf", iri);
			for (int c : distinct(Rng.between(r, 2, 4), courses)) {
				out.iri(s, UB + "takesCourse", entity("Course", c));
			}
			if (r.nextInt(5) == 0) {
				out.iri(s, UB + "advisor", professors.get(r.nextInt(professors.size())));
			}
		}

		private void graduate(int i, boolean teachingAssistant, boolean researchAssistant) {
			String s = entity("GraduateStudent", i);
			out.iri(s, TYPE, UB + "GraduateStudent");
			person(s, "GraduateStudent", i);
			out.iri(s, UB + "memberOf", iri);
			out.iri(s, UB + "undergraduateDegreeFrom", university(r.nextInt(DEGREE_UNIVERSITIES)));
			for (int c : distinct(Rng.between(r, 1, 3), graduateCourses)) {
				out.iri(s, UB + "takesCourse", entity("GraduateCourse", c));
			}
			out.iri(s, UB + "advisor", professors.get(r.nextInt(professors.size())));
			if (teachingAssistant) {
				out.iri(s, TYPE, UB + "TeachingAssistant");
				out.iri(s, UB + "teachingAssistantOf", entity("Course", r.nextInt(courses)));
			}
			if (researchAssistant) {
				out.iri(s, TYPE, UB + "ResearchAssistant");
			}
			if (!publications.isEmpty()) {
				for (int p : distinct(Rng.between(r, 0, 5), publications.size())) {
					out.iri(publications.get(p), UB + "publicationAuthor", s);
				}
			}
		}

		/** {@code n} distinct numbers from 0..bound-1 (fewer if bound is smaller). */
		private int[] distinct(int n, int bound) {
			n = Math.min(n, bound);
			java.util.LinkedHashSet<Integer> picked = new java.util.LinkedHashSet<>();
			while (picked.size() < n) {
				picked.add(r.nextInt(bound));
			}
			return picked.stream().mapToInt(Integer::intValue).toArray();
		}
	}
}
