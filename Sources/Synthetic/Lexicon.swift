import Support

/// The words of one app's language. English is `Vocabulary`'s lists, unchanged; the others are
/// short lists written for ScreenLab (everyday UI words, not full translations) so that a share
/// of apps shows Cyrillic, Greek, Chinese, Japanese or Korean text, as real app stores do.
struct Lexicon {
    let code: String
    /// Words are separated by spaces (not in Chinese and Japanese, where lines break anywhere).
    let spaced: Bool
    let screenTitles: [String], settingsTitles: [String], rowLabels: [String], names: [String]
    let buttonLabels: [String], fieldLabels: [(String, String)], segmentLabels: [[String]]
    let dialogTitles: [String], dialogButtons: [[String]], destructive: Set<String>
    let filler: [String], shortInfo: [String], sliderCaptions: [String], checkboxCaptions: [String]
    let signInButtons: [String], loginFields: [String], loginLinks: [String]
    let welcome: (String) -> String
    let searchPrefix: String

    var separator: String { spaced ? " " : "" }

    /// `count` filler words, the first capitalized where the script has capitals.
    func phrase(_ rng: inout SeededRandom, words count: Int) -> String {
        if code == "en" { return Vocabulary.phrase(&rng, words: count) }
        var words: [String] = []
        for _ in 0..<max(count, 1) { words.append(filler[rng.int(in: 0..<filler.count)]) }
        words[0] = words[0].prefix(1).uppercased() + words[0].dropFirst()
        return words.joined(separator: separator)
    }

    static let english = Lexicon(
        code: "en", spaced: true, screenTitles: Vocabulary.screenTitles, settingsTitles: Vocabulary.settingsTitles,
        rowLabels: Vocabulary.rowLabels, names: Vocabulary.names, buttonLabels: Vocabulary.buttonLabels,
        fieldLabels: Vocabulary.fieldLabels, segmentLabels: Vocabulary.segmentLabels, dialogTitles: Vocabulary.dialogTitles,
        dialogButtons: Vocabulary.dialogButtons, destructive: Vocabulary.destructive, filler: Vocabulary.filler,
        shortInfo: Vocabulary.shortInfo, sliderCaptions: Vocabulary.sliderCaptions, checkboxCaptions: Vocabulary.checkboxCaptions,
        signInButtons: Vocabulary.signInButtons, loginFields: ["Email", "Password"], loginLinks: Vocabulary.loginLinks,
        welcome: { "Welcome to " + $0 }, searchPrefix: "Search ")

    static let russian = Lexicon(
        code: "ru", spaced: true,
        screenTitles: ["Главная", "Настройки", "Профиль", "Сообщения", "Библиотека", "Поиск", "Аккаунт", "Уведомления", "Избранное",
                       "Заказы", "Кошелёк", "Фото", "Музыка", "Погода", "Календарь", "Контакты", "Рецепты", "Новости", "Друзья", "Загрузки"],
        settingsTitles: ["Настройки", "Основные", "Конфиденциальность", "Уведомления", "Аккаунт", "Экран"],
        rowLabels: ["Wi-Fi", "Bluetooth", "Авиарежим", "Уведомления", "Тёмная тема", "Геопозиция", "Язык", "Регион", "Код-пароль",
                    "Аккумулятор", "Сотовая связь", "Не беспокоить", "Универсальный доступ", "Обои", "Клавиатура", "Дата и время",
                    "Об устройстве", "Обновление ПО", "Почта", "Резервная копия", "Автовоспроизведение", "Режим экономии"],
        names: ["Анна Петрова", "Иван Смирнов", "Мария Козлова", "Дмитрий Орлов", "Елена Волкова", "Сергей Павлов", "Ольга Морозова", "Алексей Новиков"],
        buttonLabels: ["Продолжить", "Войти", "Сохранить", "Далее", "Готово", "Отправить", "Начать", "В корзину", "Подписаться", "Применить"],
        fieldLabels: [("Эл. почта", "name@example.com"), ("Пароль", "Введите пароль"), ("Имя", "Иван Иванов"), ("Телефон", "+7 900 000-00-00"),
                      ("Адрес", "Улица и дом"), ("Город", "Город"), ("Комментарий", "Добавьте заметку")],
        segmentLabels: [["День", "Неделя", "Месяц"], ["Все", "Непрочитанные"], ["Список", "Карта"], ["Фото", "Видео"]],
        dialogTitles: ["Удалить?", "Разрешить уведомления?", "Выйти?", "Доступно обновление", "Отменить изменения?"],
        dialogButtons: [["Отмена", "Удалить"], ["Запретить", "Разрешить"], ["Отмена", "Выйти"], ["Позже", "Обновить"], ["Оставить", "Отменить"]],
        destructive: ["Удалить", "Отменить"],
        filler: ["новый", "ваш", "для", "с", "и", "в", "на", "все", "лучшие", "утро", "обзор", "неделя", "рецепт", "город", "путеводитель",
                 "фото", "кофе", "музыка", "идеи", "советы", "события", "друзья", "альбом", "проект", "заметки", "отчёт", "доставка",
                 "заказ", "коллекция", "сезон", "рынок", "море", "лес", "зима", "лето", "история", "видео", "сегодня", "сейчас"],
        shortInfo: ["2 мин назад", "Вчера", "9:41", "Пн", "3 ч", "14 мар", "990 руб.", "4,8", "1,2 тыс.", "Новое", "12 шт.", "Бесплатно", "5 км", "18 °C"],
        sliderCaptions: ["Яркость", "Громкость", "Размер текста", "Расстояние", "Цена"],
        checkboxCaptions: ["Запомнить меня", "Я принимаю условия", "Присылать новости", "Не выходить"],
        signInButtons: ["Войти", "Продолжить"], loginFields: ["Эл. почта", "Пароль"], loginLinks: ["Забыли пароль?", "Создать аккаунт"],
        welcome: { "Добро пожаловать в " + $0 }, searchPrefix: "Поиск: ")

    static let greek = Lexicon(
        code: "el", spaced: true,
        screenTitles: ["Αρχική", "Ρυθμίσεις", "Προφίλ", "Μηνύματα", "Βιβλιοθήκη", "Αναζήτηση", "Λογαριασμός", "Ειδοποιήσεις",
                       "Αγαπημένα", "Παραγγελίες", "Φωτογραφίες", "Μουσική", "Καιρός", "Ημερολόγιο", "Επαφές", "Ειδήσεις"],
        settingsTitles: ["Ρυθμίσεις", "Γενικά", "Απόρρητο", "Ειδοποιήσεις", "Οθόνη"],
        rowLabels: ["Wi-Fi", "Bluetooth", "Λειτουργία πτήσης", "Ειδοποιήσεις", "Σκοτεινό θέμα", "Τοποθεσία", "Γλώσσα", "Περιοχή",
                    "Μπαταρία", "Μην ενοχλείτε", "Ταπετσαρία", "Πληκτρολόγιο", "Ημερομηνία και ώρα", "Σχετικά", "Αντίγραφο ασφαλείας"],
        names: ["Μαρία Παππά", "Γιώργος Νικολάου", "Ελένη Δημητρίου", "Νίκος Γεωργίου", "Άννα Οικονόμου", "Κώστας Ιωάννου"],
        buttonLabels: ["Συνέχεια", "Σύνδεση", "Αποθήκευση", "Επόμενο", "Τέλος", "Αποστολή", "Ξεκινήστε", "Εφαρμογή"],
        fieldLabels: [("Email", "name@example.com"), ("Κωδικός", "Εισαγάγετε κωδικό"), ("Όνομα", "Μαρία Παππά"), ("Τηλέφωνο", "+30 210 000 0000"),
                      ("Διεύθυνση", "Οδός και αριθμός"), ("Πόλη", "Πόλη"), ("Σημειώσεις", "Προσθέστε σημείωση")],
        segmentLabels: [["Ημέρα", "Εβδομάδα", "Μήνας"], ["Όλα", "Μη αναγνωσμένα"], ["Λίστα", "Χάρτης"], ["Φωτογραφίες", "Βίντεο"]],
        dialogTitles: ["Διαγραφή;", "Να επιτρέπονται ειδοποιήσεις;", "Αποσύνδεση;", "Διαθέσιμη ενημέρωση"],
        dialogButtons: [["Άκυρο", "Διαγραφή"], ["Όχι", "Να επιτρέπεται"], ["Άκυρο", "Αποσύνδεση"], ["Αργότερα", "Ενημέρωση"]],
        destructive: ["Διαγραφή"],
        filler: ["νέο", "το", "σας", "για", "με", "και", "στο", "όλα", "καλύτερα", "πρωί", "εβδομάδα", "συνταγή", "πόλη", "οδηγός",
                 "φωτογραφία", "καφές", "μουσική", "ιδέες", "εκδηλώσεις", "φίλοι", "άλμπουμ", "σημειώσεις", "παραγγελία", "θάλασσα",
                 "βουνό", "καλοκαίρι", "χειμώνας", "ιστορία", "βίντεο", "σήμερα", "τώρα"],
        shortInfo: ["πριν 2 λεπτά", "Χθες", "9:41", "Δευ", "3 ώ", "14 Μαρ", "12,99 €", "4,8", "Νέο", "Δωρεάν", "5 χλμ", "18 °C"],
        sliderCaptions: ["Φωτεινότητα", "Ένταση", "Μέγεθος κειμένου", "Απόσταση"],
        checkboxCaptions: ["Να με θυμάσαι", "Αποδέχομαι τους όρους", "Στείλτε μου νέα"],
        signInButtons: ["Σύνδεση", "Συνέχεια"], loginFields: ["Email", "Κωδικός"], loginLinks: ["Ξεχάσατε τον κωδικό;", "Δημιουργία λογαριασμού"],
        welcome: { "Καλώς ήρθατε στο " + $0 }, searchPrefix: "Αναζήτηση ")

    static let chinese = Lexicon(
        code: "zh", spaced: false,
        screenTitles: ["首页", "设置", "我的", "消息", "收件箱", "资料库", "发现", "搜索", "账户", "通知", "收藏", "订单", "钱包", "动态",
                       "照片", "音乐", "天气", "日历", "联系人", "菜谱", "运动", "日记", "旅行", "商城", "新闻", "好友", "下载"],
        settingsTitles: ["设置", "通用", "隐私", "通知", "账户", "显示与亮度"],
        rowLabels: ["无线局域网", "蓝牙", "飞行模式", "通知", "深色模式", "定位服务", "语言与地区", "密码", "电池", "蜂窝网络", "个人热点",
                    "勿扰模式", "辅助功能", "墙纸", "键盘", "日期与时间", "关于本机", "软件更新", "邮件", "备份", "自动播放视频", "低数据模式"],
        names: ["王小明", "李娜", "张伟", "刘洋", "陈静", "杨帆", "赵磊", "黄丽"],
        buttonLabels: ["继续", "登录", "保存", "下一步", "完成", "提交", "立即开始", "加入购物车", "关注", "发送", "确认", "立即预订"],
        fieldLabels: [("邮箱", "name@example.com"), ("密码", "请输入密码"), ("姓名", "请输入姓名"), ("手机号", "+86 138 0000 0000"),
                      ("地址", "街道和门牌号"), ("城市", "城市"), ("备注", "添加备注")],
        segmentLabels: [["日", "周", "月", "年"], ["全部", "未读"], ["热门", "最新", "附近"], ["列表", "地图"], ["照片", "视频"]],
        dialogTitles: ["删除此项？", "允许通知？", "退出登录？", "有可用更新", "放弃更改？"],
        dialogButtons: [["取消", "删除"], ["不允许", "允许"], ["取消", "退出"], ["稍后", "更新"], ["保留", "放弃"]],
        destructive: ["删除", "放弃"],
        filler: ["新的", "你的", "每日", "精选", "推荐", "早餐", "周末", "旅行", "咖啡", "音乐", "美食", "城市", "指南", "照片", "生活",
                 "健康", "简单", "快速", "热门", "附近", "活动", "好友", "分享", "相册", "歌单", "跑步", "花园", "厨房", "项目", "会议",
                 "笔记", "报告", "预算", "外卖", "订单", "发现", "合集", "季节", "市场", "海边", "森林", "冬天", "夏天", "故事", "视频", "今天"],
        shortInfo: ["2分钟前", "昨天", "上午9:41", "周一", "3小时", "3月14日", "¥12.99", "4.8", "1.2万", "新", "12件", "免费", "5公里", "18°C"],
        sliderCaptions: ["亮度", "音量", "文字大小", "距离", "价格区间", "速度"],
        checkboxCaptions: ["记住我", "我已阅读并同意条款", "接收更新", "保持登录"],
        signInButtons: ["登录", "继续"], loginFields: ["邮箱", "密码"], loginLinks: ["忘记密码？", "创建账户"],
        welcome: { "欢迎使用" + $0 }, searchPrefix: "搜索")

    static let japanese = Lexicon(
        code: "ja", spaced: false,
        screenTitles: ["ホーム", "設定", "プロフィール", "メッセージ", "ライブラリ", "さがす", "アカウント", "お知らせ", "お気に入り",
                       "注文履歴", "ウォレット", "写真", "ミュージック", "天気", "カレンダー", "連絡先", "レシピ", "ニュース", "友だち"],
        settingsTitles: ["設定", "一般", "プライバシー", "通知", "アカウント", "画面表示"],
        rowLabels: ["Wi-Fi", "Bluetooth", "機内モード", "通知", "ダークモード", "位置情報", "言語と地域", "パスコード", "バッテリー",
                    "モバイル通信", "おやすみモード", "アクセシビリティ", "壁紙", "キーボード", "日付と時刻", "情報", "ソフトウェア・アップデート"],
        names: ["佐藤 花子", "鈴木 一郎", "高橋 美咲", "田中 太郎", "伊藤 さくら", "渡辺 健"],
        buttonLabels: ["続ける", "ログイン", "保存", "次へ", "完了", "送信", "はじめる", "カートに追加", "フォロー", "確認"],
        fieldLabels: [("メール", "name@example.com"), ("パスワード", "パスワードを入力"), ("氏名", "山田 花子"), ("電話番号", "090-0000-0000"),
                      ("住所", "番地・建物名"), ("メモ", "メモを追加")],
        segmentLabels: [["日", "週", "月", "年"], ["すべて", "未読"], ["リスト", "マップ"], ["写真", "ビデオ"]],
        dialogTitles: ["削除しますか？", "通知を許可しますか？", "ログアウトしますか？", "アップデートがあります"],
        dialogButtons: [["キャンセル", "削除"], ["許可しない", "許可"], ["キャンセル", "ログアウト"], ["あとで", "アップデート"]],
        destructive: ["削除"],
        filler: ["新しい", "あなたの", "毎日の", "おすすめ", "週末", "旅行", "コーヒー", "音楽", "料理", "まち", "ガイド", "写真", "くらし",
                 "かんたん", "人気", "近く", "イベント", "友だち", "アルバム", "プレイリスト", "ランニング", "キッチン", "プロジェクト",
                 "ノート", "レポート", "お届け", "コレクション", "季節", "マーケット", "海", "森", "冬", "夏", "ストーリー", "動画", "今日"],
        shortInfo: ["2分前", "昨日", "午前9:41", "月", "3時間", "3月14日", "¥1,200", "4.8", "新着", "12件", "無料", "5 km", "18°C"],
        sliderCaptions: ["明るさ", "音量", "文字サイズ", "距離", "価格帯"],
        checkboxCaptions: ["ログイン状態を保持", "利用規約に同意する", "お知らせを受け取る"],
        signInButtons: ["ログイン", "続ける"], loginFields: ["メール", "パスワード"], loginLinks: ["パスワードをお忘れですか？", "アカウントを作成"],
        welcome: { $0 + "へようこそ" }, searchPrefix: "検索: ")

    static let korean = Lexicon(
        code: "ko", spaced: true,
        screenTitles: ["홈", "설정", "프로필", "메시지", "받은편지함", "보관함", "둘러보기", "검색", "계정", "알림", "즐겨찾기", "주문 내역",
                       "지갑", "사진", "음악", "날씨", "캘린더", "연락처", "레시피", "운동", "여행", "쇼핑", "뉴스", "친구", "다운로드"],
        settingsTitles: ["설정", "일반", "개인정보 보호", "알림", "계정", "디스플레이 및 밝기"],
        rowLabels: ["Wi-Fi", "Bluetooth", "에어플레인 모드", "알림", "다크 모드", "위치 서비스", "언어 및 지역", "암호", "배터리", "셀룰러",
                    "개인용 핫스팟", "방해금지 모드", "손쉬운 사용", "배경화면", "키보드", "날짜 및 시간", "정보", "소프트웨어 업데이트",
                    "메일", "백업", "동영상 자동 재생", "저전력 모드"],
        names: ["김민준", "이서연", "박지훈", "최수아", "정하늘", "강도윤", "윤지우", "한예린"],
        buttonLabels: ["계속", "로그인", "저장", "다음", "완료", "보내기", "시작하기", "장바구니 담기", "팔로우", "확인", "예약하기"],
        fieldLabels: [("이메일", "name@example.com"), ("비밀번호", "비밀번호 입력"), ("이름", "홍길동"), ("휴대폰 번호", "010-0000-0000"),
                      ("주소", "도로명 주소"), ("도시", "도시"), ("메모", "메모 추가")],
        segmentLabels: [["일", "주", "월", "년"], ["전체", "읽지 않음"], ["인기", "최신", "주변"], ["목록", "지도"], ["사진", "동영상"]],
        dialogTitles: ["삭제하시겠습니까?", "알림을 허용하시겠습니까?", "로그아웃하시겠습니까?", "업데이트 가능", "변경 사항을 취소할까요?"],
        dialogButtons: [["취소", "삭제"], ["허용 안 함", "허용"], ["취소", "로그아웃"], ["나중에", "업데이트"], ["유지", "취소"]],
        destructive: ["삭제"],
        filler: ["새로운", "나의", "오늘의", "추천", "아침", "주말", "여행", "커피", "음악", "맛집", "도시", "가이드", "사진", "생활", "건강",
                 "간단한", "빠른", "인기", "근처", "이벤트", "친구", "공유", "앨범", "플레이리스트", "러닝", "정원", "주방", "프로젝트",
                 "회의", "노트", "보고서", "배달", "주문", "컬렉션", "계절", "시장", "바다", "숲", "겨울", "여름", "이야기", "영상", "지금"],
        shortInfo: ["2분 전", "어제", "오전 9:41", "월", "3시간", "3월 14일", "12,900원", "4.8", "1.2만", "새 글", "12개", "무료", "5km", "18°C"],
        sliderCaptions: ["밝기", "음량", "텍스트 크기", "거리", "가격대"],
        checkboxCaptions: ["로그인 상태 유지", "약관에 동의합니다", "소식 받기", "자동 로그인"],
        signInButtons: ["로그인", "계속"], loginFields: ["이메일", "비밀번호"], loginLinks: ["비밀번호를 잊으셨나요?", "계정 만들기"],
        welcome: { $0 + "에 오신 것을 환영합니다" }, searchPrefix: "검색: ")

    /// Languages by share of apps: most apps are English, about a quarter use another script.
    static let shares: [(Lexicon, Double)] = [(english, 0.74), (russian, 0.08), (chinese, 0.08), (japanese, 0.05), (greek, 0.05)]
    /// The ios style's languages: Latin, Hangul and CJK text (the languages Screen Recognition's screens are read in).
    static let iosShares: [(Lexicon, Double)] = [(english, 0.55), (korean, 0.2), (chinese, 0.1), (japanese, 0.1), (russian, 0.05)]

    /// Chinese, Japanese and Korean are drawn with a CJK font (WenQuanYi Micro Hei covers Hangul too).
    var needsCJKFont: Bool { ["zh", "ja", "ko"].contains(code) }

    static func pick(_ rng: inout SeededRandom, shares: [(Lexicon, Double)] = shares) -> Lexicon {
        var u = rng.uniform()
        for (lexicon, share) in shares {
            u -= share
            if u < 0 { return lexicon }
        }
        return english
    }
}
