#!/usr/bin/env python3
"""The installed tree (`cmake --install build --prefix P`) and the .deb (`cpack -G DEB`).

  install_test.py tree BUILD_DIR PREFIX            install into PREFIX (the fixture of the others)
  install_test.py consumer PREFIX CXX [--sanitize] a CMake project (tests/consumer) and a pkg-config
                                                   build against PREFIX rank as the installed CLI does
  install_test.py python PREFIX PYTHON_DIR         the installed Python module, by PYTHONPATH and as
                                                   README's `--prefix ~/.local` install (user site)
  install_test.py docs PREFIX [--no-man]           completions and the man page name the real subcommands
  install_test.py deb BUILD_DIR                    cpack -G DEB: what the package holds, and where
Run from the repo root."""
import json
import os
import shutil
import subprocess
import sys
import tempfile

import cli_harness

check = cli_harness.check
HERE = os.path.dirname(os.path.abspath(__file__))
MODE = sys.argv[1]
SUBCOMMANDS = ["rank", "explain", "batch", "evaluate", "profiles", "targets", "calibrate"]


def sh(*args, env=None, cwd=None, timeout=600):
    p = subprocess.run(list(args), capture_output=True, text=True, env=env, cwd=cwd, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def subcommands_of(binary):
    """The subcommands `gemm-advisor --help` lists (the truth the docs must match)."""
    rc, out, _ = sh(binary, "--help")
    lines = out.split("Subcommands:\n", 1)[1].split("\n\n", 1)[0].splitlines()
    return [line.split()[0] for line in lines if line.startswith("  ") and line.strip()]


if MODE == "tree":
    build, prefix = sys.argv[2], sys.argv[3]
    shutil.rmtree(prefix, ignore_errors=True)
    rc, out, err = sh("cmake", "--install", build, "--prefix", prefix)
    check("cmake --install --prefix: exit 0", rc == 0, err)
    for rel in ["bin/gemm-advisor", "include/gemm_advisor/advise.hpp", "include/gemm_advisor/frontend.hpp",
                "share/gemm-advisor/profiles/h200.yaml", "share/gemm-advisor/profiles/SCHEMA.md",
                "share/gemm-advisor/examples/llama3-70b.csv", "share/gemm-advisor/examples/moe-models.csv"]:
        check(f"installed: {rel}", os.path.isfile(os.path.join(prefix, rel)))
    # README's batch commands run as written from the installed share folder (a fresh user had no examples/).
    rc, out, err = sh(os.path.join(prefix, "bin", "gemm-advisor"), "batch",
                      os.path.join(prefix, "share/gemm-advisor/examples/llama3-70b.csv"), "--hw", "b200", "--top", "3",
                      "--format", "csv", "-q")
    check("README's `batch examples/llama3-70b.csv --hw b200 --top 3 --format csv` on the installed list",
          rc == 0 and out.startswith("name,m,n,k") and out.count("\n") > 3, err)
    rc, out, err = sh(os.path.join(prefix, "bin", "gemm-advisor"), "profiles", "validate",
                      os.path.join(prefix, "share/gemm-advisor/profiles/mi300x.yaml"))
    check("the installed profiles are valid", rc == 0 and ": ok: mi300x" in out, out + err)
    rc, out, err = sh(os.path.join(prefix, "bin", "gemm-advisor"), "--version")
    version = out.split()[1] if rc == 0 else "?"
    with open(os.path.join(prefix, "lib", "cmake", "gemm_advisor", "gemm_advisorConfigVersion.cmake")) as f:
        config_version = f.read()
    check("the CMake package's version is the binary's (project() VERSION = version())",
          f'set(PACKAGE_VERSION "{version}")' in config_version, version)

elif MODE == "consumer":
    prefix, cxx = sys.argv[2], sys.argv[3]
    sanitize = "--sanitize" in sys.argv
    binary = os.path.join(prefix, "bin", "gemm-advisor")
    work = tempfile.mkdtemp(prefix="gemm-advisor-consumer-")
    rc, out, err = sh("cmake", "-S", os.path.join(HERE, "consumer"), "-B", work, f"-DCMAKE_PREFIX_PATH={prefix}",
                      f"-DCMAKE_CXX_COMPILER={cxx}", "-DCMAKE_BUILD_TYPE=Release")
    check("consumer: find_package(gemm_advisor) configures against the installed tree", rc == 0, out[-600:] + err)
    rc, out, err = sh("cmake", "--build", work)
    check("consumer: builds, linking gemm_advisor::gemm_advisor", rc == 0, out[-600:] + err)
    consumer = os.path.join(work, "consumer")
    # pkg-config: the same program, by the .pc file.
    pc_env = {**os.environ, "PKG_CONFIG_PATH": os.pathsep.join(
        os.path.join(prefix, d, "pkgconfig") for d in ("lib", "lib64", "lib/x86_64-linux-gnu"))}
    rc, flags, err = sh("pkg-config", "--cflags", "--libs", "gemm_advisor", env=pc_env)
    check("pkg-config --cflags --libs gemm_advisor", rc == 0 and "-lgemm_advisor" in flags, err)
    pc_consumer = os.path.join(work, "pc-consumer")
    profiles_dir = os.path.join(prefix, "share", "gemm-advisor", "profiles")
    rc, out, err = sh(cxx, "-std=c++17", "-O1", f'-DGEMM_ADVISOR_PROFILES_DIR="{profiles_dir}"',
                      os.path.join(HERE, "consumer", "main.cpp"), "-o", pc_consumer, *flags.split(),
                      *(["-fsanitize=address,undefined,float-cast-overflow"] if sanitize else []))
    check("a program built with pkg-config's flags links", rc == 0, err[-600:])
    for program, name in ((consumer, "find_package"), (pc_consumer, "pkg-config")):
        for shape, hw in (("4096x4096x4096", "h200"), ("16x6144x4096", "mi300x.yaml"), ("1000x3000x777x2", "a100")):
            rc, out, err = sh(program, shape, hw) if os.path.exists(program) else (1, "", "not built")
            got = json.loads(out)["configs"][0] if rc == 0 else {}
            rc2, out2, _ = sh(binary, "rank", shape, "--hw", hw.replace(".yaml", ""), "--top", "1", "--format", "json")
            want = json.loads(out2)["configs"][0] if rc2 == 0 else None
            check(f"{name} consumer {shape} on {hw}: a real ranking (feasible, rank 1, latency > 0)",
                  got.get("feasible") is True and got.get("rank") == 1 and got.get("latency_s", 0) > 0, out + err)
            check(f"{name} consumer {shape} on {hw}: the installed CLI's top config, to the bit", got == want,
                  f"{got} != {want}")
    rc, out, err = sh(consumer, "4096x4096", "h200") if os.path.exists(consumer) else (0, "", "")
    check("consumer: a bad shape is the library's InputError", rc == 1 and err.startswith(
        "consumer: error: shape '4096x4096'"), err)
    shutil.rmtree(work, ignore_errors=True)

elif MODE == "python":
    prefix, pydir = sys.argv[2], sys.argv[3]
    site = os.path.join(prefix, pydir)
    binary = os.path.join(prefix, "bin", "gemm-advisor")
    check("the package is installed under the prefix", os.path.isfile(os.path.join(site, "gemm_advisor",
                                                                                   "__init__.py")), site)
    code = ("import json, gemm_advisor as g\n"
            "print(json.dumps({'file': g.__file__, 'r': g.rank('4096x4096x4096', hw='NVIDIA H200', top=3)}))")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "GEMM_ADVISOR_HW")}
    rc, out, err = sh(sys.executable, "-c", code, env={**env, "PYTHONPATH": site}, cwd=tempfile.gettempdir())
    got = json.loads(out) if rc == 0 else {"file": "", "r": []}
    rc2, out2, err2 = sh(binary, "rank", "4096x4096x4096", "--hw", "NVIDIA H200", "--top", "3", "--format", "json")
    want = json.loads(out2)["configs"]
    check("PYTHONPATH=site-packages: the installed module is the one imported",
          got["file"].startswith(os.path.realpath(site)) or got["file"].startswith(site), got["file"] + err)
    check("rank('4096x4096x4096', hw='NVIDIA H200', top=3): 3 results", len(got["r"]) == 3, err)
    check("... each with exactly the rank JSON's keys", all(set(c) == set(want[0]) for c in got["r"]),
          [sorted(c) for c in got["r"]])
    check("... in the order of `gemm-advisor rank --format json`",
          [(c["rank"], c["block_m"], c["block_n"], c["block_k"], c["num_warps"], c["num_stages"], c["split_k"])
           for c in got["r"]] ==
          [(c["rank"], c["block_m"], c["block_n"], c["block_k"], c["num_warps"], c["num_stages"], c["split_k"])
           for c in want] and got["r"] == want, f"{got['r']} != {want}")
    # README: `cmake --install build --prefix ~/.local`, then plain python3 finds it (the user site).
    home = tempfile.mkdtemp(prefix="gemm-advisor-home-")
    local_site = os.path.join(home, ".local", pydir)
    os.makedirs(os.path.dirname(local_site))
    shutil.copytree(site, local_site)
    readme = "import gemm_advisor as g; print(g.rank('4096x4096x4096', hw='NVIDIA H200', top=3))"
    rc, out, err = sh(sys.executable, "-c", readme, env={**env, "HOME": home}, cwd=home)
    check("README's example after an install to ~/.local, no PYTHONPATH", rc == 0 and out.startswith("[{")
          and "'rank': 3" in out, err)
    rc, out, err = sh(sys.executable, "-c", "import gemm_advisor", env={**env, "HOME": tempfile.mkdtemp()},
                      cwd=tempfile.gettempdir())
    check("... and without that install it is not found (the test means something)", rc != 0, out)
    shutil.rmtree(home, ignore_errors=True)

elif MODE == "docs":
    prefix = sys.argv[2]
    binary = os.path.join(prefix, "bin", "gemm-advisor")
    real = subcommands_of(binary)
    check("--help lists the subcommands the docs are checked against", set(SUBCOMMANDS) <= set(real), real)
    bash_file = os.path.join(prefix, "share", "bash-completion", "completions", "gemm-advisor")
    zsh_file = os.path.join(prefix, "share", "zsh", "site-functions", "_gemm-advisor")
    fish_file = os.path.join(prefix, "share", "fish", "vendor_completions.d", "gemm-advisor.fish")
    for f in (bash_file, zsh_file, fish_file):
        check(f"installed: {os.path.relpath(f, prefix)}", os.path.isfile(f) and os.path.getsize(f) > 500)

    def bash_complete(line):
        """What bash's completion offers after `line` (its last word is being completed)."""
        words = line.split(" ")
        script = (f"source {bash_file}\nCOMP_WORDS=({' '.join(repr(w) for w in words)})\n"
                  f"COMP_CWORD={len(words) - 1}\n_gemm_advisor\nprintf '%s\\n' \"${{COMPREPLY[@]}}\"\n")
        rc, out, err = sh("bash", "-c", script)
        return out.split() if rc == 0 else ["error: " + err]

    check("bash: `gemm-advisor <TAB>` offers every subcommand", set(real) <= set(bash_complete("gemm-advisor ")),
          bash_complete("gemm-advisor "))
    check("bash: `gemm-advisor ra<TAB>` is rank", bash_complete("gemm-advisor ra") == ["rank"])
    check("bash: `rank --format <TAB>` gives its formats", bash_complete("gemm-advisor rank --format ") ==
          ["table", "json", "csv"], bash_complete("gemm-advisor rank --format "))
    check("bash: `batch --format <TAB>` gives batch's", "jsonl" in bash_complete("gemm-advisor batch --format "))
    check("bash: `rank --hw h<TAB>` gives the profiles", bash_complete("gemm-advisor rank --hw h") == ["h100", "h200"])
    check("bash: `rank --to<TAB>` is --top and --top-k (the MoE layer's)",
          sorted(bash_complete("gemm-advisor rank --to")) == ["--top", "--top-k"], bash_complete("gemm-advisor rank --to"))
    check("bash: `rank --rou<TAB>` is --routing", bash_complete("gemm-advisor rank --rou") == ["--routing"])
    check("bash: `profiles <TAB>` offers show and validate", {"show", "validate"} <= set(
        bash_complete("gemm-advisor profiles ")))
    with open(zsh_file) as f:
        zsh_text = f.read()
    check("zsh: #compdef and every subcommand", zsh_text.startswith("#compdef gemm-advisor") and all(
        f"'{s}:" in zsh_text for s in real), zsh_text[:200])
    if shutil.which("zsh"):
        rc, out, err = sh("zsh", "-n", zsh_file)
        check("zsh -n: the completion parses", rc == 0, err)
    with open(fish_file) as f:
        fish_text = f.read()
    check("fish: every subcommand", all(f"-a {s} " in fish_text for s in real))
    if shutil.which("fish"):
        rc, out, err = sh("fish", "--no-config", "-c", f"source {fish_file}; complete -C 'gemm-advisor '")
        offered = [line.split("\t")[0] for line in out.splitlines()]
        check("fish: `gemm-advisor <TAB>` offers every subcommand", rc == 0 and set(real) <= set(offered), out + err)
        rc, out, err = sh("fish", "--no-config", "-c", f"source {fish_file}; complete -C 'gemm-advisor rank --format '")
        check("fish: `rank --format <TAB>` gives its formats", [line.split("\t")[0] for line in out.splitlines()] ==
              ["csv", "json", "table"] or sorted(line.split("\t")[0] for line in out.splitlines()) ==
              ["csv", "json", "table"], out + err)
    man = os.path.join(prefix, "share", "man", "man1", "gemm-advisor.1")
    if "--no-man" in sys.argv:
        print("note: built without help2man: no man page to check")
        check("no help2man: no man page installed", not os.path.exists(man))
    else:
        with open(man) as f:
            page = f.read()
        check("man page: a roff page for gemm-advisor", page.startswith(".\\\"") or ".TH GEMM-ADVISOR" in page,
              page[:200])
        version = sh(binary, "--version")[1].split()[1]
        check("man page: .TH, NAME and the binary's version", ".TH GEMM-ADVISOR" in page and
              "gemm-advisor \\- rank" in page and f'"gemm-advisor {version} ' in page, page[:400])
        check("man page: a SUBCOMMANDS section naming each, with its options", ".SH SUBCOMMANDS" in page and all(
            f"gemm\\-advisor {s}" in page for s in real) and "\\-\\-candidates" in page, page[:300])
        if shutil.which("man"):
            rc, out, err = sh("man", "-l", man, env={**os.environ, "MANWIDTH": "100", "MANPAGER": "cat",
                                                     "PAGER": "cat"})
            check("man -l renders it", rc == 0 and "SUBCOMMANDS" in out and "gemm-advisor rank" in out, err)

elif MODE == "deb":
    build = sys.argv[2]
    out_dir = tempfile.mkdtemp(prefix="gemm-advisor-deb-")
    rc, out, err = sh("cpack", "-G", "DEB", "--config", os.path.join(build, "CPackConfig.cmake"), "-B", out_dir)
    debs = [f for f in os.listdir(out_dir) if f.endswith(".deb")]
    check("cpack -G DEB writes one .deb", rc == 0 and len(debs) == 1, out[-600:] + err)
    if debs:
        deb = os.path.join(out_dir, debs[0])
        rc, listing, err = sh("dpkg-deb", "-c", deb)
        files = [line.split()[-1].lstrip(".") for line in listing.splitlines()]
        for path in ["/usr/bin/gemm-advisor", "/usr/share/gemm-advisor/profiles/h200.yaml",
                     "/usr/include/gemm_advisor/advise.hpp", "/usr/lib/cmake/gemm_advisor/gemm_advisorConfig.cmake",
                     "/usr/lib/pkgconfig/gemm_advisor.pc", "/usr/lib/python3/dist-packages/gemm_advisor/__init__.py",
                     "/usr/share/bash-completion/completions/gemm-advisor"]:
            check(f".deb holds {path}", path in files, listing[:600])
        check(".deb: the extension in Debian's python3 path, nothing left in lib/python3.X",
              any(f.startswith("/usr/lib/python3/dist-packages/gemm_advisor/_gemm_advisor") for f in files)
              and not any("/site-packages" in f for f in files), [f for f in files if "python" in f])
        rc, info, err = sh("dpkg-deb", "-f", deb, "Package", "Depends")
        check(".deb: package gemm-advisor depending on the shared libraries and python3",
              "Package: gemm-advisor" in info and "libyaml-cpp" in info and "python3" in info, info + err)
    shutil.rmtree(out_dir, ignore_errors=True)

else:
    sys.exit(f"install_test.py: unknown mode {MODE}")

cli_harness.finish()
