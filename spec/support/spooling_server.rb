# frozen_string_literal: true

require "tmpdir"

# The spool specs' server: bin/nettyrack serving spec/fixtures/upload_size.ru with a 96 MB heap,
# a 64 KiB in-memory body buffer and its temp files in a directory of their own. Yields the
# port; afterwards every spooled body must be gone, TERM must end it cleanly and it must never
# have run out of heap.
module SpoolingServer
  def with_spooling_server(*args)
    Dir.mktmpdir("nettyrack-spool") do |spool|
      child = NettyrackProcess.new("-p", "0", "-t", "4:4", "--body-buffer", "64k", "--max-body-size", "30m", *args,
                                   File.expand_path("../fixtures/upload_size.ru", __dir__),
                                   env: { "JRUBY_OPTS" => "--dev -J-Xmx96m -J-Djava.io.tmpdir=#{spool}" })
      yield child.stdout_match(/listening on .*:(\d+)/)[1].to_i
      Deadline.wait_until(timeout: 10) { Dir.children(spool).grep(/nettyrack-body/).empty? }
      expect(Dir.children(spool).grep(/nettyrack-body/)).to be_empty
      child.signal("TERM")
      expect(child.wait.exitstatus).to eq(0)
      expect(child.stderr).not_to include("OutOfMemoryError")
    ensure
      child&.kill
    end
  end
end
