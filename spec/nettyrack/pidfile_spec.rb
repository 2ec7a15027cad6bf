# frozen_string_literal: true

require "tmpdir"
require "nettyrack/pidfile"

RSpec.describe Nettyrack::Pidfile do
  it "writes the pid whole and removes the file only while it names this process" do
    Dir.mktmpdir do |dir|
      path = File.join(dir, "server.pid")
      pidfile = described_class.new(path, pid: 4242).check
      pidfile.write
      expect(File.read(path)).to eq("4242\n")
      expect(Dir.children(dir)).to eq(["server.pid"]), "no temporary file left"
      File.write(path, "4310\n") # a hot restart's new process wrote its own
      pidfile.remove
      expect(File.read(path)).to eq("4310\n")
      described_class.new(path, pid: 4310).remove
      expect(File.exist?(path)).to be(false)
    end
  end

  it "says in one sentence why a path cannot be used, before the app loads" do
    Dir.mktmpdir do |dir|
      described_class.new(File.join(dir, "tmp", "pids", "x.pid")).check
      expect(File.directory?(File.join(dir, "tmp", "pids"))).to be(true), "a missing directory is made"
      File.write(File.join(dir, "file"), "")
      expect { described_class.new(File.join(dir, "file", "x.pid")).check }
        .to raise_error(Nettyrack::BootError, /\Acannot write pid file #{dir}\/file\/x\.pid: cannot make #{dir}\/file: /)
      expect { described_class.new(dir).check }.to raise_error(Nettyrack::BootError, "cannot write pid file #{dir}: it is a directory")
    end
  end

  it "takes a relative path from the directory it was given in" do
    Dir.mktmpdir do |dir|
      Dir.chdir(dir) { expect(described_class.new("tmp/server.pid").path).to eq(File.join(File.realpath(dir), "tmp/server.pid")) }
    end
  end
end
