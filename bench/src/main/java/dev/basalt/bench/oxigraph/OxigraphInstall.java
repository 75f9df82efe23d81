package dev.basalt.bench.oxigraph;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

import dev.basalt.bench.process.ChildProcess;

/**
 * Installs Oxigraph from PyPI into a Python virtual environment under the benchmark's work directory,
 * or says in one line why it cannot. Two packages of the same version: {@code oxigraph} carries the
 * {@code oxigraph} command-line server and loader (a native binary in a wheel), {@code pyoxigraph}
 * the Python binding whose {@code Store.bulk_load} is Oxigraph's other bulk path. Each is checked
 * separately, so the command-line peer still runs where the binding has no wheel for the Python at
 * hand.
 *
 * <p>An existing environment with the right versions is reused; nothing outside {@code venv} is
 * written except the install log beside it. Not thread-safe.
 */
public final class OxigraphInstall {

	/** The Oxigraph release the benchmark measures. */
	public static final String VERSION = "0.5.13";

	private static final long VENV_SECONDS = 300;
	private static final long PIP_SECONDS = 900;

	private final String python;
	private final Path venv;
	private final Consumer<String> progress;

	/**
	 * @param python the interpreter that creates the environment: a name looked up on the PATH
	 *               ({@code python3}) or a path
	 * @param venv   the environment's directory (created if missing)
	 */
	public OxigraphInstall(String python, Path venv, Consumer<String> progress) {
		this.python = python;
		this.venv = venv;
		this.progress = progress;
	}

	/**
	 * What {@link #prepare()} found: the tools ready to use, or why Oxigraph is skipped.
	 *
	 * @param oxigraph   the installed tools, null when skipped
	 * @param skipReason one line for the report, null when ready
	 */
	public record Outcome(Oxigraph oxigraph, String skipReason) {
	}

	/** Creates or reuses the environment and installs both packages; never throws for a missing piece. */
	public Outcome prepare() {
		Path cli = venv.resolve("bin").resolve("oxigraph");
		Path venvPython = venv.resolve("bin").resolve("python");
		if (!Files.isExecutable(venvPython)) {
			Optional<Path> interpreter = ChildProcess.executable(python);
			if (interpreter.isEmpty()) {
				return skip("the Python interpreter `" + python + "` was not found"
						+ (python.contains("/") ? "" : " on the PATH")
						+ "; Oxigraph is installed from PyPI into a virtual environment made with it (install Python 3.8 "
						+ "or later, or name one with --python)");
			}
			progress.accept("Creating a Python virtual environment in " + venv);
			ChildProcess.Result r = step("venv").run(List.of(interpreter.get().toString(), "-m", "venv", venv.toString()),
					venv.toAbsolutePath().getParent());
			if (!r.succeeded() || !Files.isExecutable(venvPython)) {
				return skip("`" + python + " -m venv` could not create a virtual environment (on Debian and Ubuntu the "
						+ "module is in the package python3-venv): " + r.failure());
			}
		}
		if (!installed(cli, List.of(cli.toString(), "--version"), "oxigraph " + VERSION)) {
			ChildProcess.Result r = pip("oxigraph");
			if (!r.succeeded() || !installed(cli, List.of(cli.toString(), "--version"), "oxigraph " + VERSION)) {
				return skip("pip could not install oxigraph==" + VERSION + " (no access to PyPI, or no wheel for this "
						+ "platform): " + r.failure());
			}
		}
		List<String> bindingVersion = List.of(venvPython.toString(), "-c",
				"import pyoxigraph; print(pyoxigraph.__version__)");
		String bindingSkip = null;
		if (!installed(venvPython, bindingVersion, VERSION)) {
			ChildProcess.Result r = pip("pyoxigraph");
			if (!r.succeeded() || !installed(venvPython, bindingVersion, VERSION)) {
				bindingSkip = "pip could not install pyoxigraph==" + VERSION + " for this Python (no access to PyPI, or no "
						+ "wheel for this Python version): " + r.failure();
				progress.accept("pyoxigraph skipped: " + bindingSkip);
			}
		}
		return new Outcome(new Oxigraph(cli, bindingSkip == null ? venvPython : null, bindingSkip), null);
	}

	private ChildProcess.Result pip(String pkg) {
		progress.accept("Installing " + pkg + "==" + VERSION + " into " + venv);
		Path pip = venv.resolve("bin").resolve("pip");
		return step("pip-" + pkg).run(List.of(pip.toString(), "install", "--disable-pip-version-check", "-q",
				pkg + "==" + VERSION), venv);
	}

	/** Whether {@code command} runs and prints a line starting with {@code expected}. */
	private boolean installed(Path executable, List<String> command, String expected) {
		if (!Files.isExecutable(executable)) {
			return false;
		}
		ChildProcess.Result r = step("version").run(command, venv);
		return r.succeeded() && r.lastLines().stream().anyMatch(l -> l.startsWith(expected));
	}

	private ChildProcess step(String name) {
		long timeout = name.startsWith("pip") ? PIP_SECONDS : VENV_SECONDS;
		return ChildProcess.unmeasured(venv.toAbsolutePath().resolveSibling("oxigraph-install-" + name + ".log"), timeout);
	}

	private Outcome skip(String reason) {
		progress.accept("Skipping Oxigraph: " + reason);
		return new Outcome(null, reason);
	}
}
