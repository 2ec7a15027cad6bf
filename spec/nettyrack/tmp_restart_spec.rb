# frozen_string_literal: true

require "fileutils"
require "stringio"
require "tmpdir"
require "nettyrack/orders"
require "nettyrack/tmp_restart"

RSpec.describe Nettyrack::TmpRestart do
  it "makes tmp/restart.txt, and asks for a hot restart each time it is touched" do
    Dir.mktmpdir do |dir|
      path = File.join(dir, "tmp", "restart.txt")
      FileUtils.mkdir_p(File.dirname(path))
      orders = Nettyrack::Orders.new
      watch = described_class.new(orders, err: StringIO.new, path: path, interval: 0.05).start
      begin
        expect(File.exist?(path)).to be(true)
        expect(orders.next(timeout: 0.3)).to be_nil, "no touch, no restart"
        2.times do |i|
          File.utime(Time.now + i + 10, Time.now + i + 10, path) # later than any mtime seen, whatever the clock's grain
          order = orders.next(timeout: 10)
          expect([order&.kind, order&.reason]).to eq([:restart, "tmp/restart.txt touched"])
        end
      ensure
        watch.stop
      end
    end
  end

  it "says in one line when it cannot watch, and does nothing more" do
    err = StringIO.new
    described_class.new(Nettyrack::Orders.new, err: err, path: "/nonexistent/tmp/restart.txt").start.stop
    expect(err.string).to start_with("nettyrack: tmp_restart: cannot watch /nonexistent/tmp/restart.txt: ")
    expect(err.string).to end_with("; a touch will not restart\n")
  end
end
