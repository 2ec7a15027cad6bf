# frozen_string_literal: true

RSpec.describe Nettyrack::Error do
  it("prints as one line led by the program's name") { expect(described_class.new("no config.ru").line).to eq("nettyrack: no config.ru") }

  describe "Nettyrack.describe_syntax_error" do
    def describe_message(message)
      Nettyrack.describe_syntax_error(SyntaxError.new(message))
    end

    it "reads JRuby's message, dropping the source lines" do
      expect(describe_message("app.ru:3: syntax error, unexpected end-of-file\nrun ->(e){\n     ^"))
        .to eq("syntax error in app.ru:3: unexpected end-of-file")
    end

    it "reads Prism's message" do
      expect(describe_message("app.ru:3: syntax errors found\n> 3 | run(\n    |     ^ unexpected end-of-input"))
        .to eq("syntax error in app.ru:3")
    end

    it("keeps a message of another shape") { expect(describe_message("odd")).to eq("syntax error: odd") }
  end

  describe "Nettyrack.describe_system_error" do
    it "keeps the OS's reason only" do
      error = Errno::ENOENT.new("/srv/app")
      expect(Nettyrack.describe_system_error(error)).to eq("No such file or directory")
    end
  end
end
