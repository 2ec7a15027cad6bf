# frozen_string_literal: true

require "open3"
require "rbconfig"
require "tmpdir"
require "nettyrack/signals"

RSpec.describe Nettyrack::Signals do
  it "reads whether a signal is ignored from the SigIgn mask" do
    Dir.mktmpdir do |dir|
      status = File.join(dir, "status")
      File.write(status, "Name:\tjava\nSigIgn:\t0000000000000802\nSigCgt:\t0\n") # INT (2) and USR2 (12)
      expect(described_class.ignored?("INT", status: status)).to be(true)
      expect(described_class.ignored?("USR2", status: status)).to be(true)
      expect(described_class.ignored?("TERM", status: status)).to be(false)
      expect(described_class.ignored?("INT", status: File.join(dir, "missing"))).to be(false)
    end
  end

  # JRuby's own trap installs nothing for a signal the JVM started with ignored; Signals.trap
  # takes it over first. A child JRuby with INT ignored by its shell shows both.
  it "traps a signal the process started with ignored, as MRI's trap does" do
    script = <<~RUBY
      $LOAD_PATH.unshift(#{File.expand_path('../../lib', __dir__).inspect})
      require "nettyrack/signals"
      before = Nettyrack::Signals.ignored?("INT")
      got = Queue.new
      Nettyrack::Signals.trap("INT") { got << :trapped }
      Process.kill("INT", Process.pid)
      Thread.new { sleep 30; got << :lost } # the bound, should INT never arrive
      puts "ignored before: \#{before}, after: \#{Nettyrack::Signals.ignored?('INT')}, \#{got.pop}"
      puts Nettyrack::Signals.untrappable_lines.inspect
    RUBY
    out, err, status = Open3.capture3("timeout", "60", "bash", "-c", 'trap "" INT; exec "$0" -e "$1"', RbConfig.ruby, script)
    expect(status.success?).to be(true), err
    expect(out).to eq("ignored before: true, after: false, trapped\n[]\n")
  end
end
