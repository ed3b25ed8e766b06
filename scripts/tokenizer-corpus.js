// tokenizer-corpus.js - the texts attn's tokenizers are held to the
// reference on (scripts/make-tokenizer-fixtures writes them to
// tests/data/tokenizers/corpus.json): prose, Shakespeare, contractions,
// numbers, runs of spaces, tabs and newlines, composed and decomposed
// accents, a dozen scripts, emoji with ZWJ and flags, code, URLs, odd
// Unicode (U+180E and the other spaces that are and are not white space),
// the tokenizers' own special tokens; each written here, none downloaded,
// and a few hundred more made from them by a fixed generator.
'use strict';

const prose = [
  'The quick brown fox jumps over the lazy dog.',
  'Attention is all you need, or so the paper said in 2017.',
  'A transformer reads every token at once; a recurrent network reads one at a time.',
  'She sells sea shells by the sea shore, and the shells she sells are surely sea shells.',
  'In the beginning the Universe was created. This has made a lot of people very angry.',
  'Insecta is the class of the insects, the largest group of animals on Earth.',
  'Hello world',
  'hello, hello!',
  'Is this the real life? Is this just fantasy?',
  'The mitochondria is the powerhouse of the cell.',
  'Colorless green ideas sleep furiously.',
  'It was the best of times, it was the worst of times, it was the age of wisdom.',
  'Call me Ishmael. Some years ago, never mind how long precisely, I went to sea.',
  'Softmax turns scores into weights that add up to one.',
  'Queries meet keys; values follow the weights.',
  'The head at layer 5, head 1 copies the token after the earlier one.',
  'GPT-2, Llama 3, Qwen3 and Gemma 3 each cut text their own way.',
  'unbelievably uncharacteristically antidisestablishmentarianism',
  'supercalifragilisticexpialidocious',
  'A B C D E F G H I J K L M N O P Q R S T U V W X Y Z',
  'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
  'ababababababababababababababababababababab',
  'Mr. O\'Neil\'s dog\'s bone wasn\'t where he\'d left it.',
  'e.g. i.e. etc. vs. a.m. p.m. U.S.A.',
  'WHY ARE YOU SHOUTING? I AM NOT SHOUTING!',
  'camelCaseWordsAndPascalCaseWords and snake_case_words and kebab-case-words',
  'HTTPServerError XMLHttpRequest iPhone eBay McDonald',
];

const contractions = [
  "don't", "I'll", "she's", "they've", "we'd", "I'm", "you're", "it's", "can't", "won't",
  "DON'T", "I'LL", "SHE'S", "THEY'VE", "It'S", "We'D", "You'Re", "y'all", "'twas", "rock 'n' roll",
  "he said 'hello' and left", "the '90s", "o'clock", "l'homme", "aujourd'hui",
  "it\u2019s curly", "don\u2019t", "'s", "'t", "'re", "'ve", "'m", "'ll", "'d", "''", "'",
  "'\u017f", "I'\u017fHALL", "'K", "'\u212a", "\u0130stanbul'da",
];

const numbers = [
  '1', '12', '123', '1234', '12345', '123456789', '12345678901234567890', '2024', ' 2024', '2024 ',
  '3.14159', '1,000,000', '10/03/2024', '+44 20 7946 0958', '0x1F', '1e-9', '-42', '007', '1st 2nd 3rd 4th',
  '\u00bd \u00be \u00b2 \u00b3', '\u216b', '\u0661\u0662\u0663', '\u0967\u0968\u0969', '\uff11\uff12\uff13',
  'version 1.2.3-rc4', '$19.99', '\u20ac5,50', '100%', '2^10 = 1024', 'x1y2z3',
];

const spaces = [
  'a b', 'a  b', 'a   b', 'a    b', '  leading', 'trailing  ', '  both  ', ' ', '  ', '   ',
  '\t', '\t\tx', 'x\t\ty', 'x\n', '\nx', 'x\n\ny', 'x\n\n\ny', '\n\n\n\n', ' \n \n ', 'a\r\nb', '\r\n\r\n',
  'a \n b', 'a\n \nb', 'line one\nline two\nline three', 'end with space ', 'x \t y', '\t \t',
  'a\u00a0b', 'a \u00a0 b', 'a\u2009b', 'a\u200bb', 'a\u3000b', 'a\u2028b', 'a\u2029b', 'a\u0085b',
  'a\u000bb', 'a\u000cb', 'a\u180eb', 'a \u180e', ' \u180e ', '\u180e\u180e', 'a\u1680b', 'a\u202fb', 'a\u205fb',
  'a\ufeffb', 'a\u2060b', 'a\u00adb',
];

const accents = [
  'caf\u00e9', 'cafe\u0301', 'na\u00efve', 'nai\u0308ve', '\u00c5ngstr\u00f6m', 'A\u030angstro\u0308m',
  'Ti\u1ebfng Vi\u1ec7t', 'Tie\u0302\u0301ng Vie\u0323\u0302t', 'se\u00f1or', 'sen\u0303or',
  '\ud55c\uad6d\uc5b4', '\u1112\u1161\u11ab\u1100\u116e\u11a8\u110b\u1165', '\u00e9\u00e8\u00ea\u00eb',
  'e\u0301e\u0300e\u0302e\u0308', 'Z\u0334\u0321\u032a\u0356a\u0338l\u0336g\u0334o', '\u01c4 \u01c5 \u01c6',
  '\ufb01nance \ufb02ow', '\u0344', '\u1e9b\u0323', 'x\u0301\u0301\u0301\u0301',
];

const scripts = [
  '\u041f\u0440\u0438\u0432\u0435\u0442, \u043a\u0430\u043a \u0434\u0435\u043b\u0430? \u0421\u0435\u0433\u043e\u0434\u043d\u044f \u0445\u043e\u0440\u043e\u0448\u0430\u044f \u043f\u043e\u0433\u043e\u0434\u0430.',
  '\u0414\u043e\u0431\u0440\u0438\u0439 \u0434\u0435\u043d\u044c! \u042f\u043a \u0441\u043f\u0440\u0430\u0432\u0438? \u0407\u0436\u0430\u043a \u0456 \u0491\u0430\u043d\u043e\u043a.',
  '\u039a\u03b1\u03bb\u03b7\u03bc\u03ad\u03c1\u03b1 \u03ba\u03cc\u03c3\u03bc\u03b5! \u0397 \u03c0\u03c1\u03bf\u03c3\u03bf\u03c7\u03ae \u03b5\u03af\u03bd\u03b1\u03b9 \u03cc\u03bb\u03bf\u03b9.',
  '\u0645\u0631\u062d\u0628\u0627 \u0628\u0627\u0644\u0639\u0627\u0644\u0645\u060c \u0643\u064a\u0641 \u062d\u0627\u0644\u0643\u061f',
  '\u0633\u0644\u0627\u0645 \u062f\u0646\u06cc\u0627\u060c \u0627\u0645\u0631\u0648\u0632 \u0647\u0648\u0627 \u062e\u0648\u0628 \u0627\u0633\u062a.',
  '\u05e9\u05dc\u05d5\u05dd \u05e2\u05d5\u05dc\u05dd, \u05de\u05d4 \u05e9\u05dc\u05d5\u05de\u05da?',
  '\u0928\u092e\u0938\u094d\u0924\u0947 \u0926\u0941\u0928\u093f\u092f\u093e, \u0906\u092a \u0915\u0948\u0938\u0947 \u0939\u0948\u0902?',
  '\u09b9\u09cd\u09af\u09be\u09b2\u09cb \u09ac\u09bf\u09b6\u09cd\u09ac, \u0986\u09ae\u09bf \u09ad\u09be\u09b2\u09cb \u0986\u099b\u09bf\u0964',
  '\u0bb5\u0ba3\u0b95\u0bcd\u0b95\u0bae\u0bcd \u0b89\u0bb2\u0b95\u0bae\u0bcd',
  '\u0e2a\u0e27\u0e31\u0e2a\u0e14\u0e35\u0e0a\u0e32\u0e27\u0e42\u0e25\u0e01 \u0e27\u0e31\u0e19\u0e19\u0e35\u0e49\u0e2d\u0e32\u0e01\u0e32\u0e28\u0e14\u0e35',
  '\u4f60\u597d\uff0c\u4e16\u754c\uff01\u6ce8\u610f\u529b\u673a\u5236\u662f\u53d8\u6362\u5668\u7684\u6838\u5fc3\u3002',
  '\u3053\u3093\u306b\u3061\u306f\u4e16\u754c\u3002\u30c8\u30e9\u30f3\u30b9\u30d5\u30a9\u30fc\u30de\u30fc\u306f\u6ce8\u610f\u3092\u4f7f\u3044\u307e\u3059\u3002',
  '\uc548\ub155\ud558\uc138\uc694, \uc138\uacc4! \uc624\ub298 \ub0a0\uc528\uac00 \uc88b\ub124\uc694.',
  '\u10d2\u10d0\u10db\u10d0\u10e0\u10ef\u10dd\u10d1\u10d0 \u10db\u10e1\u10dd\u10e4\u10da\u10d8\u10dd',
  '\u0532\u0561\u0580\u0587 \u0561\u0577\u056d\u0561\u0580\u0570',
  '\u1230\u120b\u121d \u12a0\u1208\u121d',
  '\u182e\u1823\u1829\u182d\u1823\u182f \u1824\u1828 \u180e\u1820',
  'Merhaba d\u00fcnya, bug\u00fcn hava \u00e7ok g\u00fczel. I\u011fd\u0131r \u0130zmir \u015fi\u015fli',
  'Ahoj sv\u011bte, \u010de\u0161tina m\u00e1 h\u00e1\u010dky a \u010d\u00e1rky: \u0159\u017e\u0161\u010d\u0148\u010f\u0165.',
  'Xin ch\u00e0o th\u1ebf gi\u1edbi, h\u00f4m nay tr\u1eddi \u0111\u1eb9p qu\u00e1.',
  'Gr\u00fc\u00dfe aus M\u00fcnchen: Stra\u00dfe, \u00c4rger, \u00d6l, \u00dcbung.',
  '\u0141\u00f3d\u017a, Gda\u0144sk, \u017b\u00f3\u0142w \u2014 za\u017c\u00f3\u0142\u0107 g\u0119\u015bl\u0105 ja\u017a\u0144.',
  'Ol\u00e1 mundo, a\u00e7\u00e3o e cora\u00e7\u00e3o.', '\u00bfQu\u00e9 tal? \u00a1Muy bien!',
];

const emoji = [
  '\ud83d\udc4d', '\ud83d\ude00\ud83d\ude03\ud83d\ude04', '\ud83d\udc68\u200d\ud83d\udc69\u200d\ud83d\udc67\u200d\ud83d\udc66',
  '\ud83c\udff3\ufe0f\u200d\ud83c\udf08', '\ud83c\uddeb\ud83c\uddf7\ud83c\uddef\ud83c\uddf5\ud83c\udde9\ud83c\uddea',
  '\ud83d\udc4b\ud83c\udffd', '1\ufe0f\u20e3', '\u2764\ufe0f', 'I \u2764\ufe0f NY', 'ok \ud83d\udc4c!',
  '\ud83e\uddd1\u200d\ud83d\udcbb coding', '\ud83c\udff4\udb40\udc67\udb40\udc62\udb40\udc73\udb40\udc63\udb40\udc74\udb40\udc7f',
  '\u2615\ufe0e', '\ud83d\ude80\ud83d\ude80\ud83d\ude80', 'emoji\ud83d\ude00inside\ud83d\ude00words',
];

const code = [
  'int main(void) {\n    printf("hello\\n");\n    return 0;\n}',
  'def f(x):\n\treturn x ** 2  # square\n',
  'for (int i = 0; i < n; i++) sum += a[i] * b[i];',
  '{"key": "value", "list": [1, 2, 3], "nested": {"a": null}}',
  'SELECT name, count(*) FROM users WHERE age >= 18 GROUP BY name;',
  'git commit -m "fix: the tokenizer\'s pattern"',
  'x = y if y != None else z  // and this && that || other',
  '<div class="box"><p>Hi</p></div>',
  '#include <stdio.h>\n#define MAX(a, b) ((a) > (b) ? (a) : (b))',
  'fn main() { let v: Vec<u32> = (0..10).collect(); }',
  '    indented four\n        indented eight',
  'if a:\n    if b:\n        pass\n',
  '$ ls -la | grep ".c$" > out.txt 2>&1',
  'arr[0][1] = {{1,2},{3,4}};',
  '/* comment */ // another\n-- sql comment',
];

const urls = [
  'https://example.com/path/to/page?q=1&r=2#frag', 'http://localhost:8080/', 'user@example.org',
  'www.test.co.uk', 'ftp://files.example.net/pub/file-1.2.tar.gz', 'mailto:someone@example.com?subject=Hi',
  'https://en.wikipedia.org/wiki/Attention_(machine_learning)', 'C:\\Users\\name\\file.txt', '/usr/local/bin/attn',
  '@user #hashtag', '192.168.0.1:443', '[link](https://example.com)',
];

const odd = [
  '\u202eevil\u202c', '\u200f\u200e', '\ufffd', '\ue000\ue001', '\ud835\udc00\ud835\udc01\ud835\udc02',
  '\uff21\uff22\uff23\uff41\uff42\uff43', 'K\u212a', '\u017f', '\u1e9e\u00df', '\u0130\u0131', '\u03a3\u03c3\u03c2',
  '\u2126\u212b', '\u00b5\u03bc', '\u24b6\u24b7', '\u2460\u2461', '\u3300\u337f', '\u00a9\u00ae\u2122',
  '\u2014\u2013-', '\u201cquoted\u201d \u2018single\u2019', '\u2026...', '\u00b7\u2022', 'x',
  '\u0007\u001b[31mred\u001b[0m', '\u00a0', '\u2007', '\u0009\u000a\u000b\u000c\u000d',
  '\ud83c\udfff', '\u0301', '\u200d', '\u034f', '\ufe0f', 'astral \u{1f9ea}',
  '\u1100\u1161', '\u0e01\u0e34', '\u0915\u094d\u0937', 'a\u0300\u0301\u0302\u0303\u0304',
];

const special = [
  '<|endoftext|>', 'hi<|endoftext|>hi', '<s>', '</s>', '<s>hello</s>', '<unk>', '<bos>', '<eos>',
  '<|begin_of_text|>Hello', 'text<|end_of_text|>', '<b>bold</b> and <i>it</i>', '<table><tr><td>1</td></tr></table>',
  '<\uff5cUser\uff5c>hi<\uff5cAssistant\uff5c>', '<start_of_turn>user\nhi<end_of_turn>', '<|im_start|>user',
  '<<s>>', '< s >', '<s', 's>', '\u2581\u2581x', 'x\u2581y', '\u2581', '',
  'a <mask> b', 'x<mask>y', '  <mask>  ', 'hi\n<mask>', 'one <|end|>  two', '<|end|>\n\nnext', 'a<w>b', 'a <w> b',
  '<w>', '\u00e9<w>', '1<w>', 'word <w>word', '\u00a0[both]\u00a0x', 'a [both] b', 'a[both]b',
];

// A fixed generator (xorshift), so the corpus is the same every time.
function generator(seed) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13; s >>>= 0;
    s ^= s >> 17;
    s ^= s << 5; s >>>= 0;
    return s;
  };
}

// The corpus: every text above, some of Shakespeare's lines and passages,
// and mixtures of them joined by spaces, newlines and tabs.
function corpus(shakespeare) {
  const lines = shakespeare.split('\n');
  const texts = [].concat(prose, contractions, numbers, spaces, accents, scripts, emoji, code, urls, odd, special);
  const next = generator(45);
  for (let i = 0; i < 60; i++) {
    const at = next() % (lines.length - 8);
    texts.push(i % 6 === 5 ? lines.slice(at, at + 8).join('\n') : lines[at]);
  }
  texts.push(lines.slice(0, 120).join('\n'));     // a long one, some 4 KB
  const pool = [].concat(prose, contractions, numbers, spaces, accents, scripts, emoji, code, urls, odd);
  const joins = [' ', '  ', '\n', '\n\n', '\t', '', ' \n', '. '];
  while (texts.length < 520) {
    const n = 2 + next() % 3;
    let t = '';
    for (let k = 0; k < n; k++)
      t += (k ? joins[next() % joins.length] : '') + pool[next() % pool.length];
    texts.push(t);
  }
  return texts;
}

module.exports = { corpus };
