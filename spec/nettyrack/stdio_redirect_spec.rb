# frozen_string_literal: true

require "fileutils"
require "rbconfig"
require "tmpdir"

# stdout_redirect moves this process's file descriptors 1 and 2, so it runs in a child JRuby
# here: what Ruby, Java and a child process write goes to the files; a reopen after a rename
# (logrotate, then SIGHUP) writes into new files.
RSpec.describe "Nettyrack::StdioRedirect" do
  let(:lib) { File.expand_path("../../lib", __dir__) }

  SCRIPT = <<~'RUBY'
    require "nettyrack/stdio_redirect"
    redirect = Nettyrack::StdioRedirect.new(stdout: "out.log", stderr: "err.log", append: ARGV.first == "append")
    redirect.apply(out: $stdout)
    puts "ruby out"
    warn "ruby err"
    java.lang.System.out.println("java out")
    java.lang.System.err.println("java err")
    system("echo child out")
    File.rename("out.log", "out.log.1")
    File.rename("err.log", "err.log.1")
    $stdout.puts(redirect.reopen.map { |path| File.basename(path) }.join(","))
    puts "after reopen"
    java.lang.System.out.println("java after reopen")
  RUBY

  def run_child(dir, *args)
    out = IO.popen([{ "JRUBY_OPTS" => "--dev" }, RbConfig.ruby, "-I", lib, "-e", SCRIPT, *args,
                    chdir: dir, err: %i[child out]], &:read)
    [$CHILD_STATUS || $?, out]
  end

  it "sends Ruby's, Java's and children's output to the files, and writes new files after a reopen" do
    Dir.mktmpdir("nettyrack-redirect") do |dir|
      File.write(File.join(dir, "out.log"), "old\n")
      status, terminal = Deadline.value(Thread.new { run_child(dir) }, 120, "the child JRuby")
      expect(status.exitstatus).to eq(0), terminal
      expect(terminal).to eq("nettyrack: stdout goes to #{File.realpath(dir)}/out.log, stderr goes to #{File.realpath(dir)}/err.log\n")
      read = ->(name) { File.read(File.join(dir, name)) }
      expect(read["out.log.1"]).to eq("ruby out\njava out\nchild out\n"), "truncated at boot without append"
      expect(read["err.log.1"]).to eq("ruby err\njava err\n")
      expect(read["out.log"]).to eq("out.log,err.log\nafter reopen\njava after reopen\n")
    end
  end

  it "appends with append" do
    Dir.mktmpdir("nettyrack-redirect") do |dir|
      File.write(File.join(dir, "out.log"), "old\n")
      status, = Deadline.value(Thread.new { run_child(dir, "append") }, 120, "the child JRuby")
      expect(status.exitstatus).to eq(0)
      expect(File.read(File.join(dir, "out.log.1"))).to start_with("old\nruby out\n")
    end
  end
end
