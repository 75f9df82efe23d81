package dev.basalt.bench.coldstart;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.basalt.bench.bsbm.BsbmModel;
import dev.basalt.bench.bsbm.BsbmParameters;
import dev.basalt.bench.bsbm.BsbmQueries;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code basalt-bench aot-train}: the training run that makes the launcher's class cache: on Java 25 and
 * later its ahead-of-time cache (JEP 483 classes loaded and linked, JEP 515 method profiles; {@code
 * -XX:AOTCacheOutput}, written as {@code basalt-server.aot}), on Java 17 to 24 a dynamic AppCDS archive
 * ({@code -XX:ArchiveClassesAtExit}, {@code basalt-server.jsa}). It starts the launcher with that option
 * on a copy of a loaded BSBM data directory, sends it the BSBM explore mix, stops it, and puts what the
 * JVM writes at exit beside the launcher's jar, where the launcher finds it
 * (dev.basalt.workbench.JvmRelaunch).
 *
 * <p>Not thread-safe: picocli fills and runs it on the main thread.
 */
@Command(name = "aot-train", mixinStandardHelpOptions = true,
		description = "Makes the launcher's class cache from a training run of the BSBM explore mix: on Java 25+ its "
				+ "AOT cache (basalt-server.aot), on Java 17-24 an AppCDS archive (basalt-server.jsa), beside basalt-server.jar.")
public final class AotTrainCommand implements Callable<Integer> {
	@Option(names = "--java", required = true, description = "the java executable the launcher will run on")
	String java;
	@Option(names = "--queries", defaultValue = "30000", description = "training queries (default ${DEFAULT-VALUE}; "
			+ "a short run leaves profiles that are not the steady state's, see docs/benchmarks-coldstart.md)")
	int queries;
	@Option(names = "--products", defaultValue = "2785", description = "BSBM products of the training data")
	int products;
	@Option(names = "--seed", defaultValue = "808")
	long seed;
	@Option(names = "--server-jar", defaultValue = "workbench-config/target/basalt-server.jar")
	Path serverJar;
	@Option(names = "--work-dir", defaultValue = "data/aot-train")
	Path workDir;
	@Option(names = "--template", description = "a loaded launcher data directory (default: made in the work dir)")
	Path template;
	@Option(names = "--port", defaultValue = "18381")
	int port;
	@Option(names = "--aot-only", description = "make only an AOT cache: when --java is older than 25, say so and "
			+ "leave the class-data archive as it is (the build's aot-cache profile)")
	boolean aotOnly;

	@Override
	public Integer call() throws Exception {
		int release = javaRelease(java);
		if (release < 17) {
			System.err.println(java + " is Java " + release + "; the launcher needs Java 17 or later");
			return 2;
		}
		boolean aot = release >= 25;
		if (aotOnly && !aot) {
			System.out.println(java + " is Java " + release + ": no AOT cache (Java 25 and later), no training run");
			return 0;
		}
		Path home = serverJar.toAbsolutePath().getParent();
		Path cache = home.resolve(aot ? "basalt-server.aot" : "basalt-server.jsa");
		Path fresh = home.resolve(cache.getFileName() + ".training");
		Files.deleteIfExists(fresh);
		BsbmModel model = new BsbmModel(products, seed);
		Path data = ColdStartCommand.ensureTemplate(template, workDir, model, seed, java, serverJar, port);
		ColdStartRun.Config config = new ColdStartRun.Config("training", java,
				List.of("-Xmx2g", (aot ? "-XX:AOTCacheOutput=" : "-XX:ArchiveClassesAtExit=") + fresh));
		new ColdStartRun(serverJar, data, workDir, port, new BsbmParameters(model), BsbmQueries.REDUCED_MIX, seed,
				System.out::println).run(config, 1, queries, 1000, false);
		if (!Files.isRegularFile(fresh) || Files.size(fresh) == 0) {
			System.err.println("the training run wrote no cache to " + fresh + "; see " + workDir.resolve("launcher.log"));
			return 1;
		}
		Files.move(fresh, cache, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
		System.out.printf(Locale.ROOT, "%s: %,d bytes; the launcher uses it when it runs on Java %s%n", cache,
				Files.size(cache), aot ? "25 or later" : "17 to 24 (the JDK build that made it)");
		return 0;
	}

	/** The feature release of {@code java}, from the first line {@code java -version} prints. */
	static int javaRelease(String java) throws IOException, InterruptedException {
		Process p = new ProcessBuilder(java, "-version").redirectErrorStream(true).start();
		String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		p.waitFor();
		return releaseOf(out);
	}

	/** The feature release in a {@code java -version} text: "17.0.15" is 17, "1.8.0_392" is 8. */
	static int releaseOf(String versionText) {
		Matcher m = Pattern.compile("version \"(\\d+)(?:\\.(\\d+))?").matcher(versionText);
		if (!m.find()) {
			return 0;
		}
		int first = Integer.parseInt(m.group(1));
		return first == 1 && m.group(2) != null ? Integer.parseInt(m.group(2)) : first;
	}
}
